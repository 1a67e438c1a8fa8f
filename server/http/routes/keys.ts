import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KEY_LIMITS, createApiKeySchema, type ApiKey, keyOperations } from '../../../contract';
import { operationRoute } from '../operation-route';
import type { ApiKeyInfo, KeyStore } from '../../store/ports';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { HttpError } from '../errors';
import { parseBodyOrThrow } from '../parse';

const DAY_MS = 86_400_000;
const isoOrNull = (time: number | null) => (time === null ? null : new Date(time).toISOString());

const toApiKey = (key: ApiKeyInfo): ApiKey => ({
  id: key.id,
  label: key.label,
  role: key.role,
  created_at: new Date(key.createdAt).toISOString(),
  created_by: key.createdBy,
  expires_at: isoOrNull(key.expiresAt),
  last_used_at: isoOrNull(key.lastUsedAt),
  revoked_at: isoOrNull(key.revokedAt),
});

/** Extension: the project's API keys, for its admins (the key itself only in the creation's answer). */
export function keyRoutes(app: FastifyInstance, keys: KeyStore): void {
  operationRoute(app, keyOperations.listKeys, async (request) => {
    const items = await keys.list(principalOf(request).project);
    return { ok: true, data: { items: items.reverse().map(toApiKey) } };
  });

  operationRoute(app, keyOperations.createKey, async (request, reply) => {
    const body = parseBodyOrThrow(createApiKeySchema, request.body);
    const { project, actor } = principalOf(request);
    const now = Date.now();
    const created = {
      label: body.label,
      role: body.role ?? 'operator',
      expiresAt: body.expires_in_days === undefined ? null : now + body.expires_in_days * DAY_MS,
      createdBy: actor,
    };
    const made = await keys.createWithin(project, created, KEY_LIMITS.activePerProject);
    if (!made) {
      throw new HttpError(
        409,
        `label: this project already has ${KEY_LIMITS.activePerProject} active keys; revoke one first`,
      );
    }
    const { id, key } = made;
    const [info] = (await keys.list(project)).filter((k) => k.id === id);
    audit(request, 'key.create', id, { id, role: created.role, label: created.label });
    return reply.code(201).send({ ok: true, data: { ...toApiKey(info!), key } });
  });

  operationRoute(
    app,
    keyOperations.revokeKey,
    async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const { id } = request.params;
      if (!(await keys.revoke(id, principalOf(request).project))) {
        throw new HttpError(404, `id: no key "${id}" in this project`);
      }
      audit(request, 'key.revoke', id);
      return { ok: true };
    },
  );
}
