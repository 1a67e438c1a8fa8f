import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { memberIdentitySchema, type Role } from '../../../contract';
import { usePutMember } from '../../api/members';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RoleSelect } from '../../components/RoleSelect';

/** Adds someone by e-mail (or OpenID Connect subject) with a role; checked as the service will. */
export function AddMemberForm() {
  const put = usePutMember();
  const [identity, setIdentity] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = memberIdentitySchema.safeParse(identity);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'not an identity');
      return;
    }
    put.mutate(
      { identity: parsed.data, role },
      {
        onSuccess: () => {
          notifications.show({ title: 'Member added', message: `${parsed.data} is ${role}.` });
          setIdentity('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Add a member">
      <Group align="flex-start">
        <TextInput
          label="E-mail or sub:<subject>"
          placeholder="ada@example.com"
          value={identity}
          onChange={(event) => {
            setIdentity(event.currentTarget.value);
            setProblem(null);
          }}
          error={problem && `Identity ${problem}`}
          required
          w={320}
        />
        <RoleSelect label="Role" value={role} onChange={setRole} w={360} />
        <Button type="submit" mt={25} loading={put.isPending}>
          Add member
        </Button>
      </Group>
      {put.isError && <ErrorAlert error={put.error} title="The member was not added" />}
    </form>
  );
}
