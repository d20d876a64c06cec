import { McpErrors } from './mcp.errors'

/**
 * Which environment variables a tool server process may be given. A child's environment is data for the tool
 * (an API key, a region, a mode), never a way to change how the program, its runtime, its shell or the dynamic
 * loader behaves: `NODE_OPTIONS=--import=...`, `LD_PRELOAD`, `PYTHONWARNINGS` + `BROWSER` and the like run code of
 * whoever sets them. So every name, in a server's `env`, its `env_names` and a credential's payload, must be
 * upper-case letters, digits and `_` (one spelling on every platform, and no `BASH_FUNC_x%%` or lower-case
 * `npm_config_*`), and must not be one of these. Prefixes refuse whole families, including names added later.
 */
const REFUSED_PREFIXES = [
  // JavaScript runtimes and their package managers (NODE_OPTIONS, NODE_PATH, NODE_EXTRA_CA_CERTS, NPM_CONFIG_*)
  'NODE_',
  'NPM_',
  'YARN_',
  'PNPM_',
  'COREPACK_',
  'BUN_',
  'DENO_',
  'TS_NODE_',
  // ELECTRON_RUN_AS_NODE turns the desktop app's own binary into a Node interpreter
  'ELECTRON_',
  // The dynamic loaders (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, DYLD_INSERT_LIBRARIES) and glibc's allocator
  'LD_',
  'DYLD_',
  'MALLOC_',
  // Python (PYTHONSTARTUP, PYTHONPATH, PYTHONWARNINGS, PYTHONHOME) and its installers (uvx, pip, conda)
  'PYTHON',
  'PIP_',
  'PIPX_',
  'UV_',
  'CONDA_',
  // Perl (PERL5OPT, PERL5LIB, PERL5DB, PERL_MB_OPT), Ruby (RUBYOPT, RUBYLIB) and gems
  'PERL5',
  'PERL_',
  'RUBY',
  'GEM_',
  'BUNDLE_',
  // The JVM (JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS), .NET (DOTNET_STARTUP_HOOKS, CORECLR_PROFILER_PATH), Rust
  'JAVA_',
  'JDK_',
  'DOTNET_',
  'CORECLR_',
  'COMPLUS_',
  'CARGO_',
  'RUSTUP_',
  // Git runs hooks, pagers and GIT_SSH_COMMAND; OpenSSL's config loads engines; SSH's askpass and agent socket
  'GIT_',
  'SSL_',
  'OPENSSL_',
  'SSH_',
  // Where programs look for their configuration, and bash's exported functions
  'XDG_',
  'BASH_',
  // This server's own settings (the secret key among them)
  'SWITCHBOARD_',
]

const REFUSED_NAMES = new Set([
  // The inherited base and what the host decides (a child gets the host's values, never a credential's)
  'HOME',
  'LOGNAME',
  'USER',
  'USERNAME',
  'PATH',
  'SHELL',
  'TERM',
  'TERMINFO',
  'TERMCAP',
  'PWD',
  'OLDPWD',
  'TMPDIR',
  'TMP',
  'TEMP',
  'APPDATA',
  'LOCALAPPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'USERPROFILE',
  'PROGRAMFILES',
  'PROGRAMDATA',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  // Shells: startup files, word splitting, prompts and traces that expand commands
  'ENV',
  'IFS',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'PROMPT_COMMAND',
  'CDPATH',
  'GLOBIGNORE',
  'SHELLOPTS',
  'BASHOPTS',
  'FPATH',
  'ZDOTDIR',
  'INPUTRC',
  'HISTFILE',
  // Programs that other programs start (Python's webbrowser runs BROWSER)
  'BROWSER',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'SUDO_ASKPASS',
  'EXINIT',
  'VIMINIT',
  'GVIMINIT',
  'MYVIMRC',
  // Other interpreters' startup code and search paths
  '_JAVA_OPTIONS',
  'CLASSPATH',
  'JAVA_OPTS',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'PERLLIB',
  'VIRTUAL_ENV',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'R_PROFILE',
  'R_PROFILE_USER',
  'R_ENVIRON',
  'R_ENVIRON_USER',
  'R_LIBS',
  'R_LIBS_USER',
  'LUA_INIT',
  'LUA_PATH',
  'LUA_CPATH',
  'TCLLIBPATH',
  'GUILE_LOAD_PATH',
  // Go's toolchain (`go run` honours -toolexec in GOFLAGS, downloads from GOPROXY)
  'GOFLAGS',
  'GOROOT',
  'GOPATH',
  'GOPROXY',
  'GONOPROXY',
  'GOSUMDB',
  'GONOSUMDB',
  'GOPRIVATE',
  'GOINSECURE',
  'GOTOOLCHAIN',
  'GOENV',
  'GOBIN',
  'GOEXPERIMENT',
  'GODEBUG',
  'GOWORK',
  'GOCACHE',
  'GOMODCACHE',
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTFLAGS',
  'RUSTDOCFLAGS',
  // Build tools
  'CC',
  'CXX',
  'CFLAGS',
  'CXXFLAGS',
  'CPPFLAGS',
  'LDFLAGS',
  'MAKEFLAGS',
  // glibc outside LD_: character-set modules, locales, tunables, name resolution
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
  'GLIBC_TUNABLES',
  'HOSTALIASES',
  'RESOLV_HOST_CONF',
  'LOCALDOMAIN',
  'RES_OPTIONS',
  'TZDIR',
  // Which certificates HTTP clients trust, and their own configuration files
  'CURL_CA_BUNDLE',
  'REQUESTS_CA_BUNDLE',
  'CURL_HOME',
  'WGETRC',
  'NETRC',
])

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/

/** Why a name may not be set for a tool server, or null when it may. */
export function refusalOf(name: string): string | null {
  if (!ENV_NAME.test(name)) return 'must be upper-case letters, digits and _, starting with a letter'
  const prefix = REFUSED_PREFIXES.find((candidate) => name.startsWith(candidate))
  if (prefix || REFUSED_NAMES.has(name))
    return `${name} changes how a program, its runtime or the system loader behaves, so it cannot be set for a tool server`
  return null
}

/** Refuses, with a 422 that names each variable, any name a tool server process may not be given. */
export function assertEnvNames(names: Iterable<string>, field: string): void {
  const refused = [...names].flatMap((name) => {
    const reason = refusalOf(name)
    return reason ? [{ field: `${field}.${name}`, variable: name, message: reason }] : []
  })
  if (refused.length > 0)
    throw McpErrors.ENV_NAME_NOT_ALLOWED(
      {
        variables: refused.map((entry) => entry.variable),
        fields: refused.map(({ variable, ...rest }) => rest),
      },
      `These environment variables cannot be set for a tool server: ${refused.map((entry) => entry.variable).join(', ')}.`,
    )
}

/**
 * A child's whole environment: the short list `inherited` from this process (the SDK's `getDefaultEnvironment()`:
 * HOME, LOGNAME, PATH, SHELL, TERM, USER; on Windows its system folders), the admin's variables, and the
 * credential's values for the names the admin declared. Nothing else of this process's environment reaches it.
 */
export function childEnvironment(
  launch: { env: Record<string, string>; secrets: Record<string, string> },
  inherited: Record<string, string>,
): Record<string, string> {
  return { ...inherited, ...launch.env, ...launch.secrets }
}

/** The credential's values for the declared names only; its other keys are not passed. */
export function declaredSecrets(payload: Record<string, string>, envNames: readonly string[]) {
  const secrets: Record<string, string> = {}
  for (const name of envNames) if (Object.hasOwn(payload, name)) secrets[name] = payload[name] as string
  return secrets
}
