// The same SQL on both databases (text and bigint alike): one migration serves.
export { up } from '../sqlite/035-idempotency-keys';
