import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  memberPathSchema,
  putMemberSchema,
  type Member,
  memberOperations,
} from '../../../contract';
import { operationRoute } from '../operation-route';
import type { MemberRecord, MemberStore } from '../../store/ports';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { HttpError } from '../errors';
import { parseBodyOrThrow, parseOrThrow } from '../parse';

type MemberRequest = FastifyRequest<{ Params: { identity: string } }>;

const LAST_ADMIN =
  'role: the project would be left without an admin member; make another one admin first';

const toMember = (member: MemberRecord): Member => ({
  identity: member.identity,
  role: member.role,
  added_by: member.addedBy,
  added_at: new Date(member.addedAt).toISOString(),
  last_sign_in_at:
    member.lastSignInAt === null ? null : new Date(member.lastSignInAt).toISOString(),
});

const identityOf = (request: MemberRequest) =>
  parseOrThrow(memberPathSchema, request.params).identity;

/** Extension: who signs in to the project and with which role, for its admins. */
export function memberRoutes(app: FastifyInstance, members: MemberStore): void {
  operationRoute(app, memberOperations.listMembers, async (request) => {
    const items = await members.list(principalOf(request).project);
    return { ok: true, data: { items: items.map(toMember) } };
  });

  operationRoute(app, memberOperations.putMember, async (request: MemberRequest, reply) => {
    const identity = identityOf(request);
    const { role } = parseBodyOrThrow(putMemberSchema, request.body);
    const { project, actor } = principalOf(request);
    const change = await members.put(project, identity, role, actor);
    if (change === 'last-admin') throw new HttpError(409, LAST_ADMIN);
    audit(request, change === 'added' ? 'member.add' : 'member.update', identity, { role });
    const member = (await members.list(project)).find((m) => m.identity === identity)!;
    return reply.code(change === 'added' ? 201 : 200).send({ ok: true, data: toMember(member) });
  });

  operationRoute(app, memberOperations.removeMember, async (request: MemberRequest) => {
    const identity = identityOf(request);
    const change = await members.remove(principalOf(request).project, identity);
    if (change === 'last-admin') throw new HttpError(409, LAST_ADMIN);
    if (change === 'absent')
      throw new HttpError(404, `identity: ${identity} is not a member of this project`);
    audit(request, 'member.remove', identity);
    return { ok: true };
  });
}
