/**
 * Runs `create` with every `<style>` element the document makes meanwhile carrying `nonce`. xterm's
 * DOM renderer writes its sizes and colours into `<style>` elements it makes while it opens, with
 * no option for a nonce; the console's policy admits a `<style>` only with the page's nonce, and
 * allowing every inline style sheet instead would admit an injected one too.
 */
export function withStyleNonce<T>(nonce: string, create: () => T): T {
  const original = document.createElement;
  document.createElement = function createElement(
    this: Document,
    tagName: string,
    options?: ElementCreationOptions,
  ) {
    const element = original.call(this, tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  } as typeof document.createElement;
  try {
    return create();
  } finally {
    document.createElement = original;
  }
}
