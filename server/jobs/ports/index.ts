/** The domain's ports, one file each; import them from here (`./ports`, `../jobs/ports`). */
export * from './job-store';
export * from './bulk-actions';
export * from './webhooks';
export * from './queue-controls';
export * from './schedules';
export * from './audit';
export * from './retention';
export * from './engine';
export * from './cluster';
export * from './leases';
export * from './secret-box';
export * from './logger';
export * from './trends';
export * from './incidents';
