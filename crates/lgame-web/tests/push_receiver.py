"""A push service for serve_push: a browser's subscription made here (a P-256 key pair and
an authentication secret), printed as the PushSubscription JSON, then every push the server
posts is checked and decrypted as a browser's push service and browser would: its VAPID
header (RFC 8292: an ES256 JWT whose audience is this origin, signed by the key it names,
which must be the server's GET /api/push/key) and its body (RFC 8291, aes128gcm, by
http_ece). One JSON line a push on stdout: {"path", "payload"} or {"path", "error"}.
A push to /gone/... is answered 410 Gone; others 201 Created."""

import base64
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

SERVER_KEY = sys.argv[1]  # the server's public key, as GET /api/push/key gives it


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


browser_key = ec.generate_private_key(ec.SECP256R1())
auth = os.urandom(16)
public = browser_key.public_key().public_bytes(
    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
)


def check_vapid(header, origin):
    scheme, _, params = header.partition(" ")
    assert scheme == "vapid", f"Authorization scheme {scheme!r}"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == SERVER_KEY, "k is not the server's GET /api/push/key"
    head, claims, signature = fields["t"].split(".")
    assert json.loads(b64d(head))["alg"] == "ES256"
    raw = b64d(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(SERVER_KEY))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(b64d(claims))
    assert claims["aud"] == origin, f"aud {claims['aud']!r} is not {origin!r}"
    assert claims["exp"] > time.time(), "expired"
    assert claims["sub"].startswith(("mailto:", "https:")), f"sub {claims['sub']!r}"


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        line = {"path": self.path}
        try:
            assert self.headers["Content-Encoding"] == "aes128gcm"
            assert int(self.headers["TTL"]) > 0
            check_vapid(self.headers["Authorization"], f"http://{self.headers['Host']}")
            plain = http_ece.decrypt(body, private_key=browser_key, auth_secret=auth, version="aes128gcm")
            line["payload"] = json.loads(plain)
        except Exception as e:  # told to the test, which fails on it
            line["error"] = f"{type(e).__name__}: {e}"
        print(json.dumps(line), flush=True)
        self.send_response(410 if self.path.startswith("/gone/") else 201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
origin = f"http://127.0.0.1:{server.server_port}"
print(json.dumps({"origin": origin, "keys": {"p256dh": b64e(public), "auth": b64e(auth)}}), flush=True)
server.serve_forever()
