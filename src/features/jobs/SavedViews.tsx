import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Menu,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { VIEW_LIMITS, viewNameSchema } from '../../../contract';
import {
  sharedViewsQuery,
  useBrowserViews,
  useDeleteSharedView,
  useSaveSharedView,
  type TableViewLink,
} from '../../api/views';
import { useCan } from '../../api/permissions';

type Scope = 'browser' | 'project';

function ViewItems({ views, label }: { views: TableViewLink[]; label: string }) {
  const navigate = useNavigate();
  if (views.length === 0) return null;
  return (
    <>
      <Menu.Label>{label}</Menu.Label>
      {views.map((view) => (
        <Menu.Item key={view.name} onClick={() => void navigate(`/jobs?${view.search}`)}>
          {view.name}
        </Menu.Item>
      ))}
    </>
  );
}

/** A saved view with its Delete button, in the dialog (a menu item cannot hold a button). */
function ViewRow({ view, onDelete }: { view: TableViewLink; onDelete?: () => void }) {
  return (
    <Group justify="space-between" wrap="nowrap" data-testid="saved-view">
      <Text size="sm" truncate>
        {view.name}
      </Text>
      {onDelete && (
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={onDelete}
          aria-label={`Delete view ${view.name}`}
        >
          ✕
        </ActionIcon>
      )}
    </Group>
  );
}

/**
 * The jobs table's filters and sort saved under a name: in this browser, or for everyone of the
 * project where the service shares views. A saved view is a link: opening it sets the URL.
 */
export function SavedViews({ search, shared }: { search: string; shared: boolean }) {
  const browser = useBrowserViews();
  const project = useQuery({ ...sharedViewsQuery, enabled: shared });
  const save = useSaveSharedView();
  const remove = useDeleteSharedView();
  const [opened, dialog] = useDisclosure();
  // Controlled: the dialog opened from the menu closes it for sure, whatever focus does then.
  const [menuOpened, setMenuOpened] = useState(false);
  const [name, setName] = useState('');
  // A viewer reads the project's views; saving and deleting them is an operator's.
  const canSave = useCan('saveView').allowed;
  const sharing = shared && canSave;
  const deleting = useCan('deleteView').allowed;
  const [chosenScope, setScope] = useState<Scope>('project');
  const scope: Scope = sharing ? chosenScope : 'browser';
  const [problem, setProblem] = useState<string | null>(null);
  const projectViews = project.data ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = viewNameSchema.safeParse(name.trim());
    if (!checked.success) return setProblem(`Name ${checked.error.issues[0]!.message}`);
    const view = { name: checked.data, search };
    if (scope === 'browser') {
      browser.save(view);
      return close();
    }
    save.mutate(view, { onSuccess: close, onError: (error) => setProblem(error.message) });
  };
  const close = () => {
    dialog.close();
    setName('');
    setProblem(null);
  };
  return (
    <>
      <Menu position="bottom-start" withinPortal opened={menuOpened} onChange={setMenuOpened}>
        <Menu.Target>
          <Button variant="default">Views</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <ViewItems views={browser.views} label="This browser" />
          <ViewItems views={projectViews} label="Shared in the project" />
          {browser.views.length + projectViews.length === 0 && (
            <Menu.Label>No saved views yet</Menu.Label>
          )}
          <Menu.Divider />
          <Menu.Item
            onClick={() => {
              setMenuOpened(false);
              dialog.open();
            }}
          >
            Save or manage views…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={opened} onClose={close} title="Save this view">
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="Name"
              description="Its filters and sort, as the address shows them."
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={VIEW_LIMITS.nameMaxLength}
              data-autofocus
            />
            {sharing && (
              <SegmentedControl
                aria-label="Save for"
                value={scope}
                onChange={(value) => setScope(value as Scope)}
                data={[
                  { value: 'project', label: 'Everyone in the project' },
                  { value: 'browser', label: 'This browser' },
                ]}
              />
            )}
            {problem && (
              <Alert color="red" role="alert" title="The view was not saved">
                {problem}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Close
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save view
              </Button>
            </Group>
            {browser.views.length > 0 && <Text fw={500}>Saved in this browser</Text>}
            {browser.views.map((view) => (
              <ViewRow key={view.name} view={view} onDelete={() => browser.remove(view.name)} />
            ))}
            {projectViews.length > 0 && <Text fw={500}>Shared in the project</Text>}
            {projectViews.map((view) => (
              <ViewRow
                key={view.name}
                view={view}
                onDelete={deleting ? () => remove.mutate(view.name) : undefined}
              />
            ))}
          </Stack>
        </form>
      </Modal>
    </>
  );
}
