// The same SQL on both databases (text, bigint and partial indexes alike): one migration serves.
export { up } from '../sqlite/013-waiting-jobs-index';
