import type { StoredEnvVar } from '../jobs/model';
import type { WebhookStore } from '../jobs/ports';
import type { SealedEnvStore } from '../store/ports';
import { AesGcmSecretBox } from './secret-box';

export interface RotationReport {
  /** Jobs holding at least one sealed value. */
  jobs: number;
  /** Values sealed again with the current key. */
  resealed: number;
  /** Values that the current key had sealed already. */
  current: number;
  /** Webhooks' signing secrets sealed again, of how many. */
  webhookSecrets: { resealed: number; of: number };
}

const PAGE = 500;

/**
 * `jobdeck secrets rotate`: every stored sealed value not sealed by the current key is opened
 * (with whichever configured key sealed it) and sealed again with the current one. Afterwards no
 * value needs a retired key, so the retired keys can be removed. Safe to run while the service
 * runs (it seals new values with the current key already) and safe to run again.
 */
export async function resealAll(
  store: SealedEnvStore,
  webhooks: WebhookStore,
  box: AesGcmSecretBox,
): Promise<RotationReport> {
  const report: RotationReport = {
    jobs: 0,
    resealed: 0,
    current: 0,
    webhookSecrets: await resealWebhookSecrets(webhooks, box),
  };
  let afterSeq = 0;
  for (;;) {
    const page = await store.jobsWithSealedEnv(afterSeq, PAGE);
    for (const job of page) {
      report.jobs += 1;
      let changed = false;
      const env = job.env.map((variable): StoredEnvVar => {
        if (!('sealed' in variable)) return variable;
        if (AesGcmSecretBox.keyIdOfSealed(variable.sealed) === box.currentKeyId) {
          report.current += 1;
          return variable;
        }
        changed = true;
        report.resealed += 1;
        return { name: variable.name, sealed: box.seal(box.open(variable.sealed)) };
      });
      // Env is written once, at insert: a lost compare-and-set means another rotate got there.
      if (changed) await store.replaceEnv(job.id, job.envJson, env);
    }
    if (page.length < PAGE) return report;
    afterSeq = page.at(-1)!.seq;
  }
}

async function resealWebhookSecrets(webhooks: WebhookStore, box: AesGcmSecretBox) {
  const all = await webhooks.list();
  let resealed = 0;
  for (const { id, sealedSecret } of all) {
    if (AesGcmSecretBox.keyIdOfSealed(sealedSecret) === box.currentKeyId) continue;
    if (
      await webhooks.replaceSecret({
        id,
        readSealed: sealedSecret,
        sealed: box.seal(box.open(sealedSecret)),
      })
    ) {
      resealed += 1;
    }
  }
  return { resealed, of: all.length };
}
