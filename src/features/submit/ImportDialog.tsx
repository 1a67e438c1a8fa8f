import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { formatIssues } from '../../../contract';
import { submitRequestSchema, type SubmitRequest } from '../../lib/submission';

export function ImportDialog({
  opened,
  onClose,
  onImport,
}: {
  opened: boolean;
  onClose: () => void;
  onImport: (payload: SubmitRequest) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      setError(`not valid JSON: ${(e as Error).message}`);
      return;
    }
    const parsed = submitRequestSchema.safeParse(json);
    if (!parsed.success) {
      setError(formatIssues(parsed.error.issues));
      return;
    }
    onImport(parsed.data);
    setText('');
    setError(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Import a JSON payload" size="lg">
      <Stack>
        <Textarea
          label="Job submission payload"
          autosize
          minRows={8}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={error}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={submit}>Import</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
