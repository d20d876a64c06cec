import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * AES-256-GCM for secrets at rest (tool credentials, model provider keys). The key comes from
 * `SWITCHBOARD_SECRET_KEY` (32 bytes as hex or base64) or a generated `<data>/secret.key` (mode 0600).
 * Sealed form: `v1.<nonce>.<tag>.<ciphertext>`, base64url parts.
 */
export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    readonly source: 'env' | 'file',
  ) {}

  static open(dataDir: string, fromEnv: string | undefined): SecretBox {
    if (fromEnv) return new SecretBox(parseKey(fromEnv), 'env')
    const file = path.join(dataDir, 'secret.key')
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 })
    chmodSync(file, 0o600)
    return new SecretBox(parseKey(readFileSync(file, 'utf8').trim()), 'file')
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce)
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return ['v1', nonce, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.')
  }

  unseal(sealed: string): string {
    const [version, nonce, tag, ciphertext] = sealed.split('.')
    if (version !== 'v1' || !nonce || !tag || ciphertext === undefined)
      throw new Error('Unknown sealed secret format.')
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    )
  }
}

function parseKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64')
  if (key.length !== 32)
    throw new Error('The secret key must be 32 bytes, given as 64 hex characters or base64.')
  return key
}
