// wikimem for OpenCode: records each session into wikimem and gives it the memory it needs.
//
// OpenCode has no shell hooks; it runs plugins like this one inside its own process. This plugin
// turns OpenCode's plugin hooks into `wikimem hook opencode` calls, one process per event with a
// JSON payload on stdin (the shape Claude Code's hooks get), and hands the memory wikimem prints
// back to OpenCode:
//
//   first message of a session  SessionStart     (source "startup" for a new session, else
//                                                  "resume"); the memory goes into the system
//                                                  prompt of every later request of the session
//   chat.message                UserPromptSubmit  the memory becomes a text part of the message
//   tool.execute.after          PostToolUse       recorded only
//   session.compacting          PreCompact        recorded only
//   session.idle (bus event)    Stop              with the last answer; OpenCode has no session end
//
// A subagent's session (one with a parent) records its tool calls under the parent session and
// nothing else: its prompt was written by the model, and its answer returns as the tool result.
//
// It can never break OpenCode: every hook catches everything (a throw inside chat.message would
// fail the user's run), a hook command that cannot start, fails, or prints something else is
// ignored, and one that runs too long is killed (WAIT_MS). Plain JavaScript, no dependency beyond
// node:child_process (which OpenCode's runtime provides).
//
// `wikimem install opencode` copies this file into OpenCode's plugin folder with COMMAND set to
// the installed hook command. Copied by hand, COMMAND stays null and the plugin runs
// `$WIKIMEM_BIN hook opencode`, or `wikimem hook opencode` from PATH.
import { spawn, spawnSync } from "node:child_process"

const COMMAND = null // set by `wikimem install opencode`
const WAIT_MS = { SessionStart: 10000, UserPromptSubmit: 10000 }
const DEFAULT_WAIT_MS = 5000
const MAX_OUTPUT = 1024 * 1024 // more than any injection; the rest is dropped
const MAX_TRACKED = 2000 // message roles remembered, per plugin instance
const LOADED = Symbol.for("wikimem.opencode.directories")

function command() {
  if (Array.isArray(COMMAND) && COMMAND.length) return COMMAND
  return [process.env.WIKIMEM_BIN || "wikimem", "hook", "opencode"]
}

// Runs the hook command with `payload` on stdin; resolves to what it printed (exit 0 only) or
// "" after any failure. Never rejects.
function run(event, payload, cwd) {
  return new Promise((resolve) => {
    let finished = false
    let timer = null
    let size = 0
    const out = []
    const finish = (text) => {
      if (finished) return
      finished = true
      if (timer) clearTimeout(timer)
      resolve(text)
    }
    let child
    try {
      const argv = command()
      child = spawn(argv[0], argv.slice(1), { cwd, env: process.env, stdio: ["pipe", "pipe", "ignore"] })
    } catch (e) {
      finish("")
      return
    }
    timer = setTimeout(() => {
      try {
        child.kill("SIGKILL")
      } catch (e) {}
      finish("")
    }, WAIT_MS[event] || DEFAULT_WAIT_MS)
    child.on("error", () => finish(""))
    child.stdout.on("data", (chunk) => {
      size += chunk.length
      if (size <= MAX_OUTPUT) out.push(chunk)
    })
    child.on("close", (code) => finish(code === 0 && size <= MAX_OUTPUT ? Buffer.concat(out).toString("utf8") : ""))
    child.stdin.on("error", () => {})
    try {
      child.stdin.end(JSON.stringify(payload))
    } catch (e) {
      finish("")
    }
  })
}

// The same, blocking OpenCode until the hook is done: for the last event of a run, after which
// `opencode run` exits without waiting for anything still pending.
function runSync(event, payload, cwd) {
  try {
    const argv = command()
    const r = spawnSync(argv[0], argv.slice(1), {
      cwd,
      env: process.env,
      input: JSON.stringify(payload),
      stdio: ["pipe", "pipe", "ignore"],
      timeout: WAIT_MS[event] || DEFAULT_WAIT_MS,
      killSignal: "SIGKILL",
      maxBuffer: MAX_OUTPUT,
    })
    return r.status === 0 && r.stdout ? String(r.stdout) : ""
  } catch (e) {
    return ""
  }
}

// The memory in a hook's answer: {"additionalContext": TEXT}; anything else is nothing.
function contextOf(stdout) {
  try {
    const answer = JSON.parse(stdout)
    const text = answer && answer.additionalContext
    return typeof text === "string" && text ? text : null
  } catch (e) {
    return null
  }
}

// fn(...) with every error, synchronous or not, swallowed.
function guard(fn) {
  return async (...args) => {
    try {
      await fn(...args)
    } catch (e) {}
  }
}

// Scalar fields of a tool's metadata: an edit's metadata also carries the whole file before and
// after, which memory never keeps.
function scalars(value) {
  const out = {}
  if (!value || typeof value !== "object") return out
  for (const [key, v] of Object.entries(value)) {
    if (v === null || ["string", "number", "boolean"].includes(typeof v)) out[key] = v
  }
  return out
}

export const WikimemPlugin = async (ctx) => {
  const directory = (ctx && ctx.directory) || process.cwd()
  // Installed at user and project scope, the plugin is loaded twice for one project: the first
  // copy serves it, so each event is recorded once.
  const loaded = (globalThis[LOADED] = globalThis[LOADED] || new Set())
  if (loaded.has(directory)) return {}
  loaded.add(directory)

  const created = new Set() // sessions this process saw being created
  const parents = new Map() // subagent session -> parent session
  const started = new Set() // sessions whose SessionStart was sent
  const standing = new Map() // session -> memory for its system prompt
  const roles = new Map() // message id -> role
  const answers = new Map() // session -> {message, texts: part id -> text} of its last answer
  const agents = new Map() // subagent session -> its agent's name

  // The session a subagent's work belongs to: the root of its chain of parents.
  function rootOf(session) {
    let root = parents.get(session)
    for (let hops = 0; root && parents.has(root) && hops < 32; hops++) root = parents.get(root)
    return root
  }

  const payload = (event, session, extra) =>
    Object.assign({ hook_event_name: event, session_id: session, cwd: directory, timestamp: new Date().toISOString() }, extra)
  const send = (event, session, extra) => run(event, payload(event, session, extra), directory)

  function remember(map, key, value) {
    if (map.size >= MAX_TRACKED) map.delete(map.keys().next().value)
    map.set(key, value)
  }

  function track(event) {
    const props = event.properties || {}
    if (event.type === "session.created") {
      const info = props.info || {}
      if (info.id) {
        created.add(info.id)
        if (info.parentID) parents.set(info.id, info.parentID)
      }
    } else if (event.type === "message.updated") {
      const info = props.info || {}
      if (info.id && info.role) remember(roles, info.id, info.role)
    } else if (event.type === "message.part.updated") {
      const part = props.part || {}
      if (part.type !== "text" || typeof part.text !== "string" || roles.get(part.messageID) !== "assistant") return
      const session = part.sessionID || props.sessionID
      let answer = answers.get(session)
      if (!answer || answer.message !== part.messageID) {
        answer = { message: part.messageID, texts: new Map() }
        answers.set(session, answer)
      }
      answer.texts.set(part.id, part.text)
    }
  }

  return {
    event: guard(async ({ event }) => {
      if (!event || typeof event.type !== "string") return
      track(event)
      const session = event.properties && event.properties.sessionID
      if (event.type !== "session.idle" || !session || !started.has(session)) return
      const answer = answers.get(session)
      answers.delete(session)
      const text = answer ? [...answer.texts.values()].join("\n").trim() : ""
      runSync("Stop", payload("Stop", session, text ? { last_assistant_message: text } : {}), directory)
    }),

    "chat.message": guard(async (input, output) => {
      const session = input && input.sessionID
      if (!session || !output) return
      if (parents.has(session)) {
        if (typeof input.agent === "string") agents.set(session, input.agent)
        return
      }
      const parts = Array.isArray(output.parts) ? output.parts : []
      if (!started.has(session)) {
        started.add(session)
        const model = input.model && (input.model.modelID || input.model.id)
        const context = contextOf(
          await send("SessionStart", session, { source: created.has(session) ? "startup" : "resume", agent: input.agent, model }),
        )
        if (context) standing.set(session, context)
      }
      const prompt = parts
        .filter((p) => p && p.type === "text" && !p.synthetic && typeof p.text === "string")
        .map((p) => p.text)
        .join("\n")
      const message = output.message && output.message.id
      const context = contextOf(await send("UserPromptSubmit", session, { prompt, message_id: message }))
      if (!context || !message || !Array.isArray(output.parts)) return
      // OpenCode orders a message's parts by id: the memory's must sort after the user's text.
      const last = parts.length && typeof parts[parts.length - 1].id === "string" ? parts[parts.length - 1].id : "prt_" + message
      output.parts.push({ id: last + "zwikimem", sessionID: session, messageID: message, type: "text", text: context, synthetic: true })
    }),

    "experimental.chat.system.transform": guard(async (input, output) => {
      const context = input && standing.get(input.sessionID)
      if (context && output && Array.isArray(output.system)) output.system.push(context)
    }),

    "tool.execute.after": guard(async (input, output) => {
      const session = input && input.sessionID
      if (!session) return
      const result = output || {}
      await send("PostToolUse", session, {
        tool_name: input.tool,
        tool_input: input.args,
        tool_use_id: input.callID,
        tool_response: { output: result.output, title: result.title, metadata: scalars(result.metadata) },
        parent_session_id: rootOf(session),
        agent: parents.has(session) ? agents.get(session) : undefined,
      })
    }),

    "experimental.session.compacting": guard(async (input) => {
      const session = input && input.sessionID
      if (session && !parents.has(session)) await send("PreCompact", session, { trigger: "auto" })
    }),
  }
}
