import type { Database } from '../platform/db'
import type { SecretBox } from '../platform/secrets'
import { findConfigValue, insertConfigIfAbsent } from './settings.repository'

/** A row no admin sees (not one of the settings): a known text sealed with the key the first instance had. */
export const SECRET_KEY_CHECK = 'secret_key_check'
const CHECK_TEXT = 'switchboard secret key check'

/**
 * Whether `secrets` holds the key this database's secrets are sealed with. The first start seals a known text,
 * once a secret stored before the check (`storedSecret`: one sealed value, if any) opens with its key; every later
 * start must open the text. Instances with different keys would each read only what they sealed themselves, and a
 * restore with another key none of it: such an instance is refused at start instead.
 */
export async function sealsWithStoredKey(
  database: Database,
  secrets: SecretBox,
  storedSecret: () => Promise<string | null>,
): Promise<boolean> {
  if ((await findConfigValue(database.reader, SECRET_KEY_CHECK)) === undefined) {
    const earlier = await storedSecret()
    if (earlier !== null && !opens(secrets, earlier)) return false
    await database.transact((tx) =>
      insertConfigIfAbsent(tx, { key: SECRET_KEY_CHECK, value: secrets.seal(CHECK_TEXT), description: null }),
    )
  }
  const sealed = await findConfigValue(database.reader, SECRET_KEY_CHECK)
  return typeof sealed === 'string' && opens(secrets, sealed, CHECK_TEXT)
}

/** Whether `sealed` opens with the key of `secrets` (to `text`, when given). */
function opens(secrets: SecretBox, sealed: string, text?: string): boolean {
  try {
    const plain = secrets.unseal(sealed)
    return text === undefined || plain === text
  } catch {
    return false
  }
}
