/**
 * A fenced code block of a document, found by its language and its first line (the file name the
 * docs put there), so a test runs what the docs say instead of a copy that drifts from it.
 *
 *   npx tsx scripts/doc-snippet.ts docs/deploy.md ini '# /etc/systemd/system/jobdeck.service'
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export function docSnippet(file: string, language: string, firstLine: string): string {
  const fence = /^```(\S*)\n([\s\S]*?)^```$/gm;
  for (const [, blockLanguage, body] of readFileSync(file, 'utf8').matchAll(fence)) {
    if (blockLanguage === language && body!.split('\n', 1)[0]!.trim() === firstLine) return body!;
  }
  throw new Error(`${file}: no \`\`\`${language} block starting with "${firstLine}"`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, language, firstLine] = process.argv.slice(2);
  if (!file || !language || !firstLine) {
    console.error('usage: doc-snippet.ts <file> <language> <first line>');
    process.exit(2);
  }
  process.stdout.write(docSnippet(file, language, firstLine));
}
