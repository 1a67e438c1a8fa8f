// The same SQL on both databases: one migration serves.
export { up } from '../sqlite/029-jobs-created-at';
