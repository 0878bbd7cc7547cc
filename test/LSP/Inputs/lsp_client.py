"""A scripted LSP session: initialize, open one .mlir file, ask for hover and
go-to-definition at given positions, shut down. Prints each answer as one
JSON line (diagnostics, hover, definition) for FileCheck.

Usage: lsp_client.py SERVER FILE [--hover LINE:COL] [--definition LINE:COL]
(LINE and COL 0-based, as in LSP).

Messages are JSON-RPC with Content-Length framing over the server's stdin and
stdout. Every read has a deadline so that a silent server fails the test
instead of hanging it.
"""

import argparse
import json
import pathlib
import select
import subprocess
import sys
import time

TIMEOUT_S = 60


class Server:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.buffer = b""
        self.next_id = 1

    def send(self, method, params, request=True):
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            message["id"] = self.next_id
            self.next_id += 1
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return message.get("id")

    def _read_some(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            sys.exit("error: no answer from the server in %d s" % TIMEOUT_S)
        ready, _, _ = select.select([self.proc.stdout], [], [], remaining)
        if not ready:
            sys.exit("error: no answer from the server in %d s" % TIMEOUT_S)
        chunk = self.proc.stdout.read1(65536)
        if not chunk:
            sys.exit("error: the server closed its output (exit code %s)" %
                     self.proc.poll())
        self.buffer += chunk

    def receive(self):
        deadline = time.monotonic() + TIMEOUT_S
        while b"\r\n\r\n" not in self.buffer:
            self._read_some(deadline)
        header, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        length = None
        for line in header.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            sys.exit("error: a message without Content-Length: %r" % header)
        while len(self.buffer) < length:
            self._read_some(deadline)
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return json.loads(body)

    def wait_for(self, predicate):
        while True:
            message = self.receive()
            if predicate(message):
                return message


def position(text):
    line, col = text.split(":")
    return {"line": int(line), "character": int(col)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server")
    parser.add_argument("file", type=pathlib.Path)
    parser.add_argument("--hover", type=position)
    parser.add_argument("--definition", type=position)
    args = parser.parse_args()

    uri = args.file.resolve().as_uri()
    server = Server([args.server])
    request = server.send("initialize", {"processId": None, "rootUri": None,
                                         "capabilities": {}})
    init = server.wait_for(lambda m: m.get("id") == request)
    capabilities = init["result"]["capabilities"]
    print(json.dumps({"initialize": {
        "hoverProvider": capabilities.get("hoverProvider"),
        "definitionProvider": capabilities.get("definitionProvider")}}))
    server.send("initialized", {}, request=False)
    server.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "mlir", "version": 1,
        "text": args.file.read_text()}}, request=False)
    diagnostics = server.wait_for(
        lambda m: m.get("method") == "textDocument/publishDiagnostics")
    for d in diagnostics["params"]["diagnostics"]:
        print(json.dumps({"diagnostic": {
            "line": d["range"]["start"]["line"],
            "severity": d.get("severity"), "message": d["message"]}}))

    for method, where in (("textDocument/hover", args.hover),
                          ("textDocument/definition", args.definition)):
        if where is None:
            continue
        request = server.send(method, {"textDocument": {"uri": uri},
                                       "position": where})
        answer = server.wait_for(lambda m: m.get("id") == request)
        print(json.dumps({method.split("/")[1]: answer.get("result")}))

    request = server.send("shutdown", None)
    server.wait_for(lambda m: m.get("id") == request)
    server.send("exit", None, request=False)
    server.proc.stdin.close()
    try:
        code = server.proc.wait(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        sys.exit("error: the server did not exit after 'exit'")
    print(json.dumps({"exit": code}))


if __name__ == "__main__":
    main()
