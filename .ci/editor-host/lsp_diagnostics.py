#!/usr/bin/env python3
"""Asks a language server for the diagnostics of some files, the way an editor does, and prints them.

Usage: lsp_diagnostics.py <workspace folder> <seconds to wait> <file>... -- <server command>...

Speaks LSP over the server's stdin/stdout: initialize (pull diagnostics, workspace configuration and work-done
progress), initialized, the "csharp" settings with analyzers on (answered when the server asks, and sent as a
change), didOpen of every file, then textDocument/diagnostic for each file until two rounds in a row agree and
report something, or the time is up. Diagnostics the server pushes are taken too. Prints one line per diagnostic:
"<file name>(<line>,<column>): <severity> <code>", one-based like a build's, sorted.
Only the standard library: the CI machine's Python runs it as it is.
"""
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

SEVERITIES = {1: "error", 2: "warning", 3: "info", 4: "hidden"}
SETTINGS = {"analyzersEnabled": True}


def main(argv):
    split = argv.index("--")
    folder, seconds, files = os.path.abspath(argv[0]), float(argv[1]), [os.path.abspath(f) for f in argv[2:split]]
    server = subprocess.Popen(argv[split + 1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    client = Client(server)
    try:
        client.request("initialize", {
            "processId": os.getpid(),
            "rootUri": uri(folder),
            "workspaceFolders": [{"uri": uri(folder), "name": os.path.basename(folder)}],
            "capabilities": {
                "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": False}},
                "textDocument": {
                    "diagnostic": {"dynamicRegistration": False},
                    "publishDiagnostics": {},
                    "synchronization": {"didSave": True},
                },
                "window": {"workDoneProgress": True},
            },
        }, timeout=120)
        client.notify("initialized", {})
        client.notify("workspace/didChangeConfiguration", {"settings": {"csharp": SETTINGS}})
        for path in files:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
            client.notify("textDocument/didOpen", {"textDocument": {"uri": uri(path), "languageId": "csharp", "version": 1, "text": text}})

        deadline, previous = time.monotonic() + seconds, None
        while time.monotonic() < deadline:
            found = {}
            for path in files:
                reply = client.request("textDocument/diagnostic", {"textDocument": {"uri": uri(path)}}, timeout=max(1, deadline - time.monotonic()))
                found[path] = (reply or {}).get("items", []) if isinstance(reply, dict) else []
            for path, pushed in client.pushed.items():
                if path in found and not found[path]:
                    found[path] = pushed
            lines = describe(found)
            if lines and lines == previous:
                print("\n".join(lines))
                return 0
            previous = lines
            time.sleep(3)
        print("\n".join(previous or []))
        print(f"lsp_diagnostics: the answers did not settle within {seconds:.0f} s", file=sys.stderr)
        return 1
    finally:
        try:
            client.request("shutdown", None, timeout=10)
            client.notify("exit", None)
        except Exception:  # the server may already be gone; the answer above is what counts
            pass
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def describe(found):
    lines = []
    for path, items in found.items():
        for d in items:
            code = d.get("code")
            if isinstance(code, dict):
                code = code.get("value")
            start = d["range"]["start"]
            lines.append(f"{os.path.basename(path)}({start['line'] + 1},{start['character'] + 1}): {SEVERITIES.get(d.get('severity'), '?')} {code}")
    return sorted(lines)


def uri(path):
    return "file://" + urllib.request.pathname2url(path)


class Client:
    """JSON-RPC over Content-Length frames; answers the server's own requests as a plain editor would."""

    def __init__(self, server):
        self.server, self.next_id, self.replies, self.pushed = server, 0, {}, {}
        self.arrived, self.writing = threading.Condition(), threading.Lock()
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        with self.writing:  # the reader thread answers the server's requests while the main thread asks
            self.server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.server.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout):
        with self.arrived:
            self.next_id += 1
            key = self.next_id
        self.send({"jsonrpc": "2.0", "id": key, "method": method, "params": params})
        end = time.monotonic() + timeout
        with self.arrived:
            while key not in self.replies:
                left = end - time.monotonic()
                if left <= 0 or self.server.poll() is not None:
                    raise TimeoutError(f"no answer to {method}")
                self.arrived.wait(left)
            reply = self.replies.pop(key)
        if "error" in reply:
            return None  # e.g. "not loaded yet": the caller asks again
        return reply.get("result")

    def read(self):
        stream = self.server.stdout
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                header = header.strip()
                if not header:
                    break
                name, _, value = header.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            if "method" in message and "id" in message:
                self.answer(message)
            elif "method" in message:
                if message["method"] == "textDocument/publishDiagnostics":
                    params = message["params"]
                    path = urllib.request.url2pathname(urllib.parse.urlparse(params["uri"]).path)
                    with self.arrived:
                        self.pushed[path] = params["diagnostics"]
            else:
                with self.arrived:
                    self.replies[message["id"]] = message
                    self.arrived.notify_all()

    def answer(self, message):
        if message["method"] == "workspace/configuration":
            result = [SETTINGS if item.get("section") == "csharp" else None for item in message["params"]["items"]]
        else:
            result = None  # registerCapability, workDoneProgress/create, showMessageRequest: accepted
        self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
