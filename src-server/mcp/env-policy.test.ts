import { describe, expect, it } from 'vitest'
import { AppError } from '../platform/errors'
import { assertEnvNames, declaredSecrets, refusalOf } from './env-policy'

describe('which environment variables a tool server may be given', () => {
  it.each([
    'GITHUB_TOKEN',
    'OPENAI_API_KEY',
    'AWS_REGION',
    'HTTPS_PROXY',
    'LANG',
    'DATABASE_URL',
    'GOOGLE_API_KEY',
  ])('admits %s', (name) => {
    expect(refusalOf(name)).toBeNull()
  })

  it.each([
    // runtimes and their loaders
    'NODE_OPTIONS',
    'NODE_PATH',
    'ELECTRON_RUN_AS_NODE',
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'DYLD_INSERT_LIBRARIES',
    'GLIBC_TUNABLES',
    'PYTHONSTARTUP',
    'PYTHONWARNINGS',
    'PERL5OPT',
    'PERLLIB',
    'RUBYOPT',
    'JAVA_TOOL_OPTIONS',
    'DOTNET_STARTUP_HOOKS',
    'UV_INDEX_URL',
    'NPM_CONFIG_REGISTRY',
    // shells and the programs they start
    'PATH',
    'HOME',
    'SHELL',
    'BASH_ENV',
    'ENV',
    'IFS',
    'PS4',
    'BROWSER',
    'GIT_SSH_COMMAND',
    'OPENSSL_CONF',
    'SSL_CERT_FILE',
    'SWITCHBOARD_SECRET_KEY',
    // not one spelling on every platform, or not a name at all
    '_JAVA_OPTIONS',
    'npm_config_registry',
    'Path',
    'BASH_FUNC_x%%',
    'A-B',
  ])('refuses %s', (name) => {
    expect(refusalOf(name)).not.toBeNull()
  })

  it('answers 422 naming every refused variable and its field', () => {
    const refused = (() => {
      try {
        assertEnvNames(['API_KEY', 'NODE_OPTIONS', 'LD_PRELOAD'], 'body.secret_payload')
      } catch (error) {
        return error
      }
    })() as AppError
    expect(refused).toBeInstanceOf(AppError)
    expect(refused).toMatchObject({ statusCode: 422, code: 'ENV_NAME_NOT_ALLOWED' })
    expect(refused.message).toContain('NODE_OPTIONS, LD_PRELOAD')
    expect(refused.details).toMatchObject({
      variables: ['NODE_OPTIONS', 'LD_PRELOAD'],
      fields: [{ field: 'body.secret_payload.NODE_OPTIONS' }, { field: 'body.secret_payload.LD_PRELOAD' }],
    })
  })

  it("passes only the credential's values for the declared names", () => {
    expect(declaredSecrets({ API_KEY: 'a', OTHER: 'b' }, ['API_KEY', 'MISSING'])).toEqual({ API_KEY: 'a' })
  })
})
