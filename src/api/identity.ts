import { queryOptions } from '@tanstack/react-query';
import { serviceKeys } from './keys';

/** Whom the key acts for (extension), for the header: read once, it changes with the key only. */
export const identityQuery = queryOptions({
  queryKey: serviceKeys.identity(),
  // Imported when first read, as the capabilities' detection is: the shell shows it on every
  // page, and the request's zod and contract schemas would otherwise load with the first page.
  queryFn: async () => (await import('./whoami')).whoAmI(),
  staleTime: Infinity,
  retry: false,
});
