import type { SubmitJobRequest } from '../../../contract';
import { Code, Group, Stack, Text } from '@mantine/core';
import { CopyTextButton } from '../../components/CopyTextButton';
import { curlCommand, redactedPayload } from './redact';

export function PayloadPreview({ payload }: { payload: SubmitJobRequest }) {
  const json = JSON.stringify(redactedPayload(payload), null, 2);
  const curl = curlCommand(payload, window.location.origin);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          Request body
        </Text>
        <Group gap="xs">
          <CopyTextButton value={json} label="Copy JSON" />
          <CopyTextButton value={curl} label="Copy as curl" />
        </Group>
      </Group>
      {/* Focusable, so that a long body scrolls from the keyboard too. */}
      <Code block data-testid="payload-preview" tabIndex={0} aria-label="Request body (JSON)">
        {json}
      </Code>
      <Text size="xs" c="dimmed">
        Sensitive values show as &lt;redacted&gt;; curl reads the key from $JOBDECK_API_KEY.
      </Text>
    </Stack>
  );
}
