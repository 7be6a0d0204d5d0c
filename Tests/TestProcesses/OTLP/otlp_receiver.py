#!/usr/bin/env python3
"""A loopback OTLP/HTTP metrics receiver for tests.

Decodes every request with the official OpenTelemetry protobuf definitions (PyPI's
opentelemetry-proto, compiled by the OpenTelemetry project) and prints one JSON line per
request: the path, the content type, the body in hex and the decoded ExportMetricsServiceRequest.
It answers as the OTLP specification says a collector does (200 with an
ExportMetricsServiceResponse), or 400 for every request when started with `refuse`.

usage: otlp_receiver.py PORT [accept|refuse]
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)

PORT = int(sys.argv[1])
MODE = sys.argv[2] if len(sys.argv) > 2 else "accept"


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        record = {"path": self.path, "contentType": self.headers.get("Content-Type"), "body": body.hex()}
        try:
            request = ExportMetricsServiceRequest()
            request.ParseFromString(body)
            record["request"] = MessageToDict(request)
        except Exception as error:  # a malformed body is a finding, reported to the test
            record["decodeError"] = str(error)
        print(json.dumps(record), flush=True)
        if MODE == "refuse":
            self.answer(400, b"", "text/plain")
        else:
            self.answer(200, ExportMetricsServiceResponse().SerializeToString(), "application/x-protobuf")

    def answer(self, status, payload, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", PORT), Receiver)
print(json.dumps({"listening": PORT}), flush=True)
server.serve_forever()
