import {exitCodeHelp} from './exit-codes.js';

/**
 * The `--help` text: every command, every flag, the configuration rules and the exit codes, so a
 * script author never has to read the source.
 */
const exitCodes = exitCodeHelp.map(([code, text]) => `  ${code}  ${text}`).join('\n');

export const helpText = `
Usage
  $ agent-tui [options]                          open the dashboard
  $ agent-tui conversations [--status S[,S...]] [--all-profiles] [--causes N|all] [--json]
  $ agent-tui sandboxes [--json]
  $ agent-tui specs [--json]
  $ agent-tui pause <sandbox-id>
  $ agent-tui resume <sandbox-id>
  $ agent-tui delete <conversation-id>... [--yes]
  $ agent-tui interrupt <conversation-id>
  $ agent-tui run <conversation-id>
  $ agent-tui approve <conversation-id>
  $ agent-tui reject <conversation-id> [--reason TEXT]
  $ agent-tui message <conversation-id> TEXT [--run]
  $ agent-tui ask <conversation-id> QUESTION [--json]
  $ agent-tui export <conversation-id> [-o FILE]
  $ agent-tui events <conversation-id> [--kind KIND] [--source SOURCE] [--body TEXT]
                     [--desc] [--follow] [--json]
  $ agent-tui start --message TEXT [--repo OWNER/REPO] [--plugin SOURCE[@REF][:PATH]]...
                    [--wait] [--json]
  $ agent-tui snooze <conversation-id> [--for 2h | --until-change]
  $ agent-tui unsnooze <conversation-id>
  $ agent-tui watch [--status S[,S...]] [--json] [--alert-command CMD]
  $ agent-tui changes <conversation-id> [--json | --patch | --stat]
  $ agent-tui simulator [--port N] [--seed S] [--conversations N] [--clock-offset=-21d]
                        [--data-clock-offset=-24d31s] [--max-running N]
                        [--starting-sandboxes N] [--history 30d]
  $ agent-tui keys

Commands
  (none)          the interactive dashboard (needs a terminal)
  conversations   every conversation (all pages); --status takes agent statuses
                  (idle, running, paused, waiting_for_confirmation, finished, error, stuck,
                  deleting) and sandbox statuses as sandbox:S (sandbox:starting, :running,
                  :paused, :error, :missing), case-insensitive, comma-separated or repeated;
                  a status this client does not know still filters, with a warning;
                  --json: each row adds "cause", the group the dashboard's ! puts it in
                  ({"key": "error:rate_limit", "kind", "error_kind", "retryable", …}) or null
                  --all-profiles: every profile of the config file at once, a SERVER
                  column (JSON: "profile" on each row); a profile that cannot be read
                  is said on stderr, the others still listed, and the exit code is its
                  --causes N|all: read why the N most recently updated errored
                  conversations failed (default 25, a request each; the rest say
                  error:unread, and stderr how many)
                  --json rows carry "snoozed_until": an ISO time, "change", or null
  snooze          leave a conversation out of the dashboard's ! and n/N and its alerts until
                  it changes (a new event, status or cause; the default), or --for D (90m,
                  2h, 1d, 1w). Kept per server in $XDG_STATE_HOME/agent-tui/snoozes/ (0600),
                  shared with the dashboard's s
  unsnooze        end a conversation's snooze (the dashboard's u)
  sandboxes       every sandbox
  specs           the sandbox specs
  pause, resume   ask the server to pause or resume a sandbox; the status changes
                  afterwards, asynchronously. Resuming one may pause your oldest other one
  delete          delete conversations and the sandboxes only they use: lists them, asks
                  y/N on a terminal; a script needs --yes (without it: exit 2)
  interrupt       stop one conversation's agent at once (its sandbox and the other
                  conversations in it keep running); falls back to pause on older servers
  run             let a stopped agent go on; says so when it is already running (exit 0)
                  Both need the conversation's sandbox RUNNING; otherwise they say so, exit 5
                  and change nothing (a PAUSED one you may resume: agent-tui resume ID)
  approve         approve the pending actions of a conversation waiting for confirmation
  reject          reject them; --reason TEXT is what the agent is told
  message         send the agent a message; --run also starts it (as m does in the dashboard)
  ask             ask the agent a side question (as A does in the dashboard): the answer on
                  stdout; the agent keeps working, its status and history are unchanged.
                  Needs its sandbox RUNNING (else exit 5; never resumed). Waits up to 600 s
                  for the model (--timeout D); --json: {"conversation_id", "question", "response"}
  export          the conversation's whole record, running or not: the trajectory zip
                  (from its agent server while it runs, else the app server's download,
                  which answers while paused), else {conversation, source, events} as
                  JSON from the agent server or the app server's stored copy
      -o FILE           write to FILE (mode 0600) instead of stdout
  events          the events of a conversation (hex or dashed id, or the short id
                  the table shows), oldest first; running or not: the app server's
                  stored copy when its sandbox is not RUNNING (nothing is resumed)
      --kind KIND       ActionEvent, openhands.sdk.event...ActionEvent (case-insensitive)
      --source SOURCE   agent, user, environment or hook
      --body TEXT       message text contains TEXT (case-insensitive)
      --desc            newest first
      --follow          keep printing new events until the conversation is finished,
                        error or stuck, or its sandbox is ERROR or MISSING; a PAUSED
                        one is checked every 10 s and followed once it runs again
  start           start a conversation: phases on stderr, the new id on stdout
      --message TEXT    the first message (required)
      --repo OWNER/REPO the repository to work on
      --plugin SPEC     a plugin, SOURCE[@REF][:PATH]; repeat for more
      --wait            then follow it until it ends, events on stderr (with --json:
                        NDJSON on stdout); exit 0 when finished, 6 otherwise
  watch           one line per status change of any conversation, each change once,
                  until ctrl-c, naming which status changed (agent or sandbox);
                  --status keeps changes into those statuses (sandbox:S for a sandbox's);
                  --json lines carry "cause" (as conversations --json); without --status,
                  each change of a conversation's cause is a line too ("which": "cause",
                  "from"/"to" the cause keys, "to": null when cleared, "server",
                  "server_time" on that server's clock); --alert-command CMD runs CMD
                  with each of those objects on stdin
  changes         the files the conversation's agent changed in its repository
                  (status<TAB>path, like git --name-status), through the app server
                  (or its agent server); its sandbox must be RUNNING
      --json            [{"status": "ADDED|DELETED|UPDATED|MOVED", "path": ...}]
      --stat            added and removed lines per file, like git diff --stat
      --patch           a patch in git's format: \`git apply\` on the original files gives
                        the modified files byte for byte (sanitized on a terminal)
  keys            the dashboard's keys, each with the name the config file's "keys" uses
                  to remap it, your own keys applied (a mistake there: exit 2, its line)
  simulator       run the embedded simulator as a server (default port: any free one)
      --port N  --seed S  --conversations N (seeded; plus 3 sub-agents and 3 runs
                        whose sandboxes are in trouble: STARTING, UNKNOWN, an outage)
      --clock-offset=D  run its clock skewed (-21d three weeks behind, +3h, 90s)
      --data-clock-offset=D  write its data on another clock than its Date header
                        shows (-24d31s: the header right, the data weeks behind)
      --max-running N   its cap on running sandboxes (default 12)
      --starting-sandboxes N  seed N sandboxes that stay STARTING
      --history 30d     seed a month (N days) of ended conversations: ERROR,
                        MISSING and PAUSED sandboxes, 3 a day
      --rate-limit R    refuse with 429 past R requests per window per key (100/min,
                        20/min; 20/6s makes minutes pass in seconds)

Output
  --json          machine-readable: one JSON array; with --follow, start or watch,
                  one JSON object per line (NDJSON). Keys are always "[redacted]"
  --no-color      no colours (NO_COLOR=1 does the same)
  --timeout D     how long to wait for an unreachable or stalled server before exit 5
                  (30s, 2m, 1h): each request, retries included, for one-shot commands
                  (default 45s); without contact with the event stream for --follow and
                  start --wait, without an answer from the server for watch (default 3m)
  --alerts        dashboard: ring the bell and send a desktop notification naming the
                  reason ("approve: $ rm -rf build/ …") when a conversation starts
                  waiting, errs or gets stuck; inside tmux or screen it is wrapped for
                  passthrough (tmux 3.3+ needs set -g allow-passthrough on)
  --alert-protocol P  dashboard: the notification sequence: osc9 (iTerm2, WezTerm,
                  Ghostty, foot), osc777 (urxvt, foot), osc99 (kitty) or bell (the bell
                  only); default: osc99 in kitty, osc777 in urxvt, else osc9
  --alert-command CMD  dashboard: run CMD (with /bin/sh) for each alert, the alert as
                  one JSON object on stdin: {"conversation_id", "title", "reason", "kind",
                  "time", "server"}; stopped after 10s; failures go to the debug log
                  (~/.config/agent-tui/debug.log)
  --quiet-after D dashboard: a running conversation with no event for D (90s, 10m, 1h;
                  default 10m) is flagged quiet
  --repeat-threshold N  dashboard: N identical tool calls in a row are flagged (default 3)
  --spend-after D dashboard: a running conversation whose cost rises with no new action,
                  observation or git change for D (default 10m) is flagged spending
                  without progress
  --dead-after D  dashboard: conversations whose sandbox is ERROR or MISSING and
                  unchanged for D (default 7d) leave the ! queue for the dead group; D clears it
  --starting-after D  dashboard: a sandbox STARTING for D (default 10m) is a cause
  --help, --version

Server and API key (flags > environment > config file)
  --base-url URL        the app server, e.g. https://app.all-hands.dev
                        (env OPENHANDS_BASE_URL)
  --profile NAME        a profile of the config file
  --all-profiles        dashboard and conversations: every profile at once, each with its
                        own server, key, request budget and clock (in the dashboard: one
                        list with a SERVER column; * switches to it, ctrl-p back to one)
  --api-key-file PATH   read the key from a file (keep it mode 0600)
  --api-key-stdin       read the key from stdin, e.g. from a password manager
  --demo                use the embedded simulator
  OPENHANDS_API_KEY is read, then dropped from process.env; the kernel's copy of the
  initial environment (/proc/PID/environ, ps eww) keeps it while agent-tui runs: where
  other local users matter, prefer --api-key-file or --api-key-stdin. --api-key VALUE is
  refused: a key on the command line lands in shell history and in \`ps\`.
  With no server configured anywhere, the dashboard opens the embedded demo simulator
  (marked DEMO); a command exits 2 and says how to configure one (with --demo it runs
  on the simulator, and says so on stderr).

  Config file: $XDG_CONFIG_HOME/agent-tui/config.json (default ~/.config/agent-tui/)
    {"defaultProfile": "work",
     "profiles": {"work": {"baseUrl": "https://…", "apiKeyFile": "~/.openhands-key"}}}
  (apiKey may be inline; then keep the file mode 0600.)
    "keys": {"pause": "P", "queue.back": ["esc", "x"]}   your own keys (agent-tui keys)

Exit codes
${exitCodes}
  130 interrupted (ctrl-c), 143 terminated (SIGTERM): every command

Environment
  AGENT_TUI_DEBUG=1   print stack traces with errors
`;
