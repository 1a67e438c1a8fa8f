import { Button, Group, Paper, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

/** Any job of the project by its id: works against every service (Job Detail only). */
export function OpenByIdForm() {
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const open = (event: FormEvent) => {
    event.preventDefault();
    if (id.trim()) void navigate(`/jobs/${encodeURIComponent(id.trim())}`);
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={open}>
        <Group align="flex-end">
          <TextInput
            label="Open a job by id"
            placeholder="3f0c…"
            value={id}
            onChange={(event) => setId(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="default" disabled={!id.trim()}>
            Open
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
