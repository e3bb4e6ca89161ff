"""Getting a Discourse user API key (`forumgm board discourse-key`): the public key in the
form Ruby's OpenSSL reads, the answer decrypted as Discourse encrypts it (checked against
OpenSSL's own output for a fixed test key), a pasted answer that is not this request's
refused in one line, and the command a host runs."""

from __future__ import annotations

import base64
import json
import secrets
from urllib.parse import parse_qs, urlsplit

import pytest
from typer.testing import CliRunner

from engine.app.cli import app
from forums.discourse import userkey
from forums.discourse.userkey import KeyPair, UserKeyError, key_request_url, read_payload

# A throw-away 1024-bit key made by `openssl genpkey -algorithm RSA` (OpenSSL 3.0), its
# public key as `openssl pkey -pubout -outform DER` wrote it, and OpenSSL's encryption
# (`pkeyutl -encrypt -pkeyopt rsa_padding_mode:pkcs1`, what Ruby's `public_encrypt` does)
# of {"key":"5e1a…","nonce":"4f1d2a9c","push":false,"api":4}.
N = int(
    "bc3ee1451c3992fc04fc36b5f3a0bbe6baa0657ca7a799b85d221d0c631c0f437de018d6d8f5f755257c059e"
    "6b859c8296b0727e3afb8a43af49855b1664495a469d7ea2153906057b8e023eb172e3ee77d8195f3c4dac4923"
    "84a9e12da48b4aebce966dbb2c9845ed282c36d38b6c22582edf7304ef9c954c8b4911d7e90ddd",
    16,
)
D = int(
    "2bd8b59de45a20bb64e9de507943ca208efdc745c6c34a11e0578ece90d33b56ec1de38b3f93e31d4912df382c"
    "313de848f32667f2931e7c6f7abf7e1cf4150574bd1aa010e4ed57ab3e64c4f1b363ca73c44b870f08016b607e"
    "6df3da861f0f26a3801624b1a0d72dda550865ae966eae4a41a718438ec6a039319f8a7998a1",
    16,
)
OPENSSL_DER = bytes.fromhex(
    "30819f300d06092a864886f70d010101050003818d0030818902818100" + f"{N:0256x}" + "0203010001"
)
CIPHER = (
    "q0+wv3TBv8GLfz3eo8g1TjJi1OxifcmWaGyMN8PEljEJ2Gcu5xy0tXHQYAnMCKopGmJn095o+wzl\n"
    "Q6Zb1At9BXlNIuvjFjNDg2LqhwBYiQBUw2YJfMYGxzDvEOBhPO9B5nT52yv0mRzYaCXUwoag1Jkw\n"
    "cjjldbK9AzgNTHbc/vE=\n"
)
KEY = "5e1a0c7b9d2f4e6a8b0c1d2e3f4a5b6c"
TEST_KEY = KeyPair(N, D)


def encrypt(keys: KeyPair, message: bytes) -> str:
    """RSAES-PKCS1-v1_5 encryption, as Discourse sends the answer (base64 in 60-char lines)."""
    filler = bytes(secrets.randbelow(255) + 1 for _ in range(keys.size - len(message) - 3))
    block = b"\x00\x02" + filler + b"\x00" + message
    cipher = pow(int.from_bytes(block, "big"), 65537, keys.n).to_bytes(keys.size, "big")
    return base64.encodebytes(cipher).decode()


def test_the_public_key_is_what_openssl_writes_for_it() -> None:
    assert TEST_KEY.public_der() == OPENSSL_DER
    pem = TEST_KEY.public_pem()
    assert pem.startswith("-----BEGIN PUBLIC KEY-----\n")
    assert pem.endswith("-----END PUBLIC KEY-----\n")
    body = "".join(pem.splitlines()[1:-1])
    assert base64.b64decode(body) == OPENSSL_DER


def test_openssls_encryption_of_discourses_answer_decrypts_to_the_key() -> None:
    assert read_payload(CIPHER, TEST_KEY, "4f1d2a9c") == KEY
    # As a browser copies it: one line, or with spaces.
    assert read_payload(CIPHER.replace("\n", " "), TEST_KEY, "4f1d2a9c") == KEY


@pytest.mark.parametrize(
    ("pasted", "nonce", "why"),
    [
        (CIPHER, "another-nonce", "another request"),
        ("not base64 at all!", "4f1d2a9c", "not the base64 text"),
        (base64.b64encode(b"\x01" * 128).decode(), "4f1d2a9c", "not encrypted with this key"),
        (base64.b64encode(b"short").decode(), "4f1d2a9c", "not the 128 of this key"),
        (encrypt(TEST_KEY, b"<html>"), "4f1d2a9c", "no JSON answer"),
        (encrypt(TEST_KEY, b'{"nonce": "4f1d2a9c"}'), "4f1d2a9c", "holds no key"),
    ],
)
def test_what_is_not_this_requests_answer_is_refused(pasted: str, nonce: str, why: str) -> None:
    with pytest.raises(UserKeyError, match=why):
        read_payload(pasted, TEST_KEY, nonce)


def test_a_new_key_pair_is_rsa_of_the_size_asked_and_decrypts_its_own() -> None:
    keys = KeyPair.generate(1024)
    assert keys.n.bit_length() == 1024 and keys.size == 128
    answer = json.dumps({"key": KEY, "nonce": "n1", "push": False, "api": 4}).encode()
    assert read_payload(encrypt(keys, answer), keys, "n1") == KEY
    assert KeyPair.generate(1024).n != keys.n


def test_the_request_asks_for_the_write_scope_with_the_public_key_and_nonce() -> None:
    url = key_request_url("https://forum.example.org/", TEST_KEY, "4f1d2a9c", "forumgm-1")
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "forum.example.org",
        "/user-api-key/new",
    )
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert query == {
        "application_name": "forumgm",
        "client_id": "forumgm-1",
        "scopes": "write",
        "public_key": TEST_KEY.public_pem(),
        "nonce": "4f1d2a9c",
    }


def test_board_discourse_key_prints_the_page_and_then_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(userkey.KeyPair, "generate", classmethod(lambda cls, bits=2048: TEST_KEY))
    monkeypatch.setattr(secrets, "token_hex", lambda size=None: "4f1d2a9c")
    runner = CliRunner(env={"COLUMNS": "300"})
    said = runner.invoke(
        app, ["board", "discourse-key", "https://forum.example.org/"], input=CIPHER + "\n"
    )
    assert said.exit_code == 0, said.output
    assert "https://forum.example.org/user-api-key/new?application_name=forumgm" in said.output
    assert said.output.splitlines().count(KEY) == 1
    assert 'api_key_kind = "user"' in said.output
    wrong = runner.invoke(
        app,
        ["board", "discourse-key", "https://forum.example.org/"],
        input=encrypt(TEST_KEY, b'{"key": "x", "nonce": "old"}') + "\n",
    )
    assert wrong.exit_code == 1 and "another request" in wrong.output
    assert "Traceback" not in wrong.output
    plain = runner.invoke(app, ["board", "discourse-key", "http://forum.example.org/"])
    assert plain.exit_code == 2 and "allow-insecure-http" in plain.output
