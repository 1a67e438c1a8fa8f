import { createLocalStore } from './local-store';

export interface Settings {
  pollSeconds: number;
  timeZone: 'local' | 'utc';
}

export const DEFAULT_SETTINGS: Settings = { pollSeconds: 1.5, timeZone: 'local' };

export const settingsStore = createLocalStore<Settings>('jobdeck.settings', DEFAULT_SETTINGS);

export const useSettings = (): Settings => ({ ...DEFAULT_SETTINGS, ...settingsStore.use() });
