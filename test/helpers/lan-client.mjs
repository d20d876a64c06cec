/**
 * A LAN client run inside a network namespace by `lan-namespace.ts`: performs the steps given as JSON in argv[2]
 * one after another (HTTP(S) requests and WebSocket opens, trusting any certificate as a first contact would, and
 * reporting the one it saw) and prints their answers as JSON.
 */
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import WebSocket from 'ws'

const steps = JSON.parse(process.argv[2])

function readBody(response) {
  return new Promise((resolve) => {
    let body = ''
    response.on('data', (chunk) => {
      body += String(chunk)
    })
    response.on('end', () => resolve(body))
    response.on('error', () => resolve(body))
  })
}

function fingerprintOf(socket) {
  return typeof socket?.getPeerCertificate === 'function'
    ? socket.getPeerCertificate().fingerprint256
    : undefined
}

function http(step) {
  const send = step.kind === 'https' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(step.url, {
      method: step.method,
      headers: step.headers ?? {},
      rejectUnauthorized: false,
    })
    req.on('response', async (response) => {
      const fingerprint256 = fingerprintOf(response.socket)
      resolve({
        status: response.statusCode,
        headers: response.headers,
        body: await readBody(response),
        fingerprint256,
      })
    })
    req.on('error', reject)
    req.end(step.body)
  })
}

function ws(step) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(step.url, { headers: step.headers ?? {}, rejectUnauthorized: false })
    socket.on('unexpected-response', async (_req, response) => {
      resolve({ status: response.statusCode, headers: response.headers, body: await readBody(response) })
      socket.terminate()
    })
    socket.on('upgrade', (response) => {
      socket.once('message', (data) => {
        resolve({
          status: 101,
          headers: response.headers,
          body: '',
          fingerprint256: fingerprintOf(response.socket),
          firstMessage: String(data),
        })
        socket.close()
      })
    })
    socket.on('error', (error) => reject(error))
  })
}

const answers = []
for (const step of steps) answers.push(await (step.kind.startsWith('ws') ? ws(step) : http(step)))
process.stdout.write(JSON.stringify(answers))
