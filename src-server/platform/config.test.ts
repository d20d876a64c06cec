import { describe, expect, it } from 'vitest'
import { ConfigError, resolveConfig } from './config'

describe('configuration', () => {
  it('reads the model and document settings from the environment, trimmed', () => {
    const config = resolveConfig(
      {},
      {
        SWITCHBOARD_OPENAI_BASE_URL: ' http://127.0.0.1:9/v1 ',
        SWITCHBOARD_OPENAI_API_KEY: ' sk-key\n',
        SWITCHBOARD_OPENAI_MODELS: 'alpha, beta,,',
        SWITCHBOARD_EMBEDDING_MODEL: ' letters ',
        SWITCHBOARD_LOCAL_EMBEDDER: 'use-lite',
        LOW_CONFIDENCE_THRESHOLD: '0.65',
        SWITCHBOARD_LAN_HOSTS: ' switchboard.office.lan, nas.local,',
      },
    )
    expect(config).toMatchObject({
      lanHosts: ['switchboard.office.lan', 'nas.local'],
      openAiBaseUrl: 'http://127.0.0.1:9/v1',
      openAiApiKey: 'sk-key',
      openAiModels: ['alpha', 'beta'],
      embeddingModel: 'letters',
      localEmbedder: 'use-lite',
      lowConfidenceThreshold: 0.65,
    })
  })

  it('defaults to no provider, the hashing embedder and a 0.8 threshold', () => {
    expect(resolveConfig({}, { SWITCHBOARD_OPENAI_API_KEY: '  ' })).toMatchObject({
      openAiBaseUrl: null,
      openAiApiKey: null,
      openAiModels: [],
      embeddingModel: null,
      localEmbedder: 'hashing',
      lowConfidenceThreshold: 0.8,
    })
  })

  it('takes a blank port as unset, not as port 0 (any free port)', () => {
    expect(resolveConfig({}, { SWITCHBOARD_PORT: ' ', SWITCHBOARD_HTTPS_PORT: ' ' })).toMatchObject({
      port: 8787,
      httpsPort: 8788,
    })
    expect(resolveConfig({}, { SWITCHBOARD_PORT: ' 9000 ' }).port).toBe(9000)
  })

  it('lets options win over the environment', () => {
    const config = resolveConfig(
      { lowConfidenceThreshold: 0.3, localEmbedder: 'hashing', openAiBaseUrl: null },
      {
        LOW_CONFIDENCE_THRESHOLD: '0.9',
        SWITCHBOARD_LOCAL_EMBEDDER: 'use-lite',
        SWITCHBOARD_OPENAI_BASE_URL: 'http://x',
      },
    )
    expect(config).toMatchObject({
      lowConfidenceThreshold: 0.3,
      localEmbedder: 'hashing',
      openAiBaseUrl: null,
    })
  })

  it.each([
    ['LOW_CONFIDENCE_THRESHOLD', '1.5', /LOW_CONFIDENCE_THRESHOLD must be a number from 0 to 1; got "1.5"/],
    ['LOW_CONFIDENCE_THRESHOLD', 'high', /LOW_CONFIDENCE_THRESHOLD must be a number from 0 to 1/],
    [
      'SWITCHBOARD_LOCAL_EMBEDDER',
      'bert',
      /SWITCHBOARD_LOCAL_EMBEDDER must be one of hashing, use-lite; got "bert"/,
    ],
    ['SWITCHBOARD_OPENAI_BASE_URL', 'localhost:8000', /SWITCHBOARD_OPENAI_BASE_URL must be an http\(s\) URL/],
    ['SWITCHBOARD_OPENAI_BASE_URL', 'not a url', /SWITCHBOARD_OPENAI_BASE_URL must be an http\(s\) URL/],
    ['SWITCHBOARD_PORT', '70000', /SWITCHBOARD_PORT must be a port from 0 to 65535; got "70000"/],
    ['SWITCHBOARD_PORT', '0x1f90', /SWITCHBOARD_PORT must be a port from 0 to 65535; got "0x1f90"/],
    ['SWITCHBOARD_HTTPS_PORT', '8e3', /SWITCHBOARD_HTTPS_PORT must be a port from 0 to 65535/],
    ['SWITCHBOARD_SSE_PING_MS', '0', /SWITCHBOARD_SSE_PING_MS must be a positive integer/],
  ])('refuses %s=%s at start-up with a message naming it', (name, value, message) => {
    expect(() => resolveConfig({}, { [name]: value })).toThrow(ConfigError)
    expect(() => resolveConfig({}, { [name]: value })).toThrow(message)
  })
})
