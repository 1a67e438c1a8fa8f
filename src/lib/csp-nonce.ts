/**
 * The page's CSP nonce: the console server gives each page one (in the meta tag Vite writes),
 * and the policy admits a `<style>` element only with it. Empty outside the served page.
 */
export const cspNonce = (): string =>
  document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
