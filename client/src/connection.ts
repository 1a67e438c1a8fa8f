export interface JobdeckClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:8080` (a trailing `/v1` is allowed). */
  url: string;
  /** An API key of the project to act in (`Authorization: Bearer …`). */
  apiKey: string;
  /** Headers sent with every call besides the key (a User-Agent, a tracing header). */
  headers?: Record<string, string>;
}

/** The service's address without a trailing slash or `/v1`: the paths carry the version. */
export const baseUrlOf = (url: string) => url.replace(/\/+$/, '').replace(/\/v1$/, '');
