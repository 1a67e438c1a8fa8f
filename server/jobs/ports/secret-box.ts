export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}
