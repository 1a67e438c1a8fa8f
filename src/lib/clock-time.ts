/** 02:14:31, in local time: when something stopped answering, as the notices say it. */
export function clockTime(ms: number): string {
  const at = new Date(ms);
  return [at.getHours(), at.getMinutes(), at.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
}
