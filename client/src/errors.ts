/** An answer that was not `ok`: the HTTP status and the service's message, as it said it. */
export class JobdeckApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'JobdeckApiError';
  }
}
