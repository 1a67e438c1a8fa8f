import {
  Button,
  Group,
  NumberInput,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  Title,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { useState } from 'react';
import { readApiKey, writeApiKey } from '../../lib/api-key';
import { settingsStore, useSettings } from '../../lib/settings';

export default function SettingsPage() {
  const settings = useSettings();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [key, setKey] = useState(() => readApiKey() ?? '');
  const [saved, setSaved] = useState(false);

  return (
    <Stack maw={640}>
      <Title order={2}>Settings</Title>
      <Paper withBorder p="md">
        <Stack>
          <PasswordInput
            label="API key"
            description="Kept in this tab's sessionStorage only, and sent as the Bearer header instead of your sign-in. Leave empty to act as signed in, or with the key the console server injects."
            value={key}
            onChange={(event) => {
              setKey(event.currentTarget.value);
              setSaved(false);
            }}
            autoComplete="off"
          />
          <Group>
            <Button
              onClick={() => {
                writeApiKey(key.trim() || null);
                setSaved(true);
              }}
            >
              Save key
            </Button>
            <Button
              variant="default"
              onClick={() => {
                writeApiKey(null);
                setKey('');
                setSaved(true);
              }}
            >
              Forget key
            </Button>
            {saved && <Text size="sm">Saved for this tab.</Text>}
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <NumberInput
            label="Poll interval (seconds)"
            description="How often an active job is refreshed"
            min={1}
            max={10}
            step={0.5}
            decimalScale={1}
            value={settings.pollSeconds}
            onChange={(value) => {
              const seconds = Number(value);
              if (seconds >= 1 && seconds <= 10)
                settingsStore.write({ ...settings, pollSeconds: seconds });
            }}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="time-label">
              Show times in
            </Text>
            <SegmentedControl
              aria-labelledby="time-label"
              value={settings.timeZone}
              onChange={(value) =>
                settingsStore.write({ ...settings, timeZone: value as 'local' | 'utc' })
              }
              data={[
                { value: 'local', label: 'Local time' },
                { value: 'utc', label: 'UTC' },
              ]}
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="theme-label">
              Theme
            </Text>
            <SegmentedControl
              aria-labelledby="theme-label"
              value={colorScheme}
              onChange={(value) => setColorScheme(value as MantineColorScheme)}
              data={[
                { value: 'light', label: 'Light' },
                { value: 'dark', label: 'Dark' },
                { value: 'auto', label: 'Auto' },
              ]}
            />
          </Stack>
        </Stack>
      </Paper>
    </Stack>
  );
}
