export * from './states';
export * from './identifiers';
export * from './limits';
export * from './submit';
export * from './job';
export * from './envelope';
export * from './issues';
