"""Getting a Discourse user API key for the GM account: `/user-api-key/new`.

Discourse hands a user API key only to an application that asks for it with an RSA public
key: the account's owner opens `/user-api-key/new?…` logged in, approves, and Discourse
shows the key encrypted with that public key (RSA, PKCS #1 v1.5 padding, base64), with the
nonce the application sent, as `{"key": …, "nonce": …, "push": …, "api": 4}`. Without an
`auth_redirect` the page shows that text for the owner to copy; `forumgm board
discourse-key` asks them to paste it here and prints the key.

The key pair lives only in that command's memory, for one exchange; forumgm has no
cryptography package among its dependencies, and this needs only RSA's arithmetic: a
2048-bit key from two random primes (Miller–Rabin), the public key as PEM (X.509
SubjectPublicKeyInfo, what Ruby's `OpenSSL::PKey::RSA.new` reads), and decryption with its
padding checked.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

__all__ = ["KeyPair", "UserKeyError", "key_request_url", "read_payload"]

SCOPES = "write"
"""What forumgm asks for: "write" lets the key GET and POST (reading included)."""
APPLICATION = "forumgm"
_E = 65537
_RSA_OID = bytes.fromhex("06092a864886f70d010101")  # 1.2.840.113549.1.1.1, rsaEncryption


class UserKeyError(ValueError):
    """What was pasted is not the answer to this request."""


def _probably_prime(n: int, rounds: int = 40) -> bool:
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        x = pow(secrets.randbelow(n - 3) + 2, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(bits: int) -> int:
    while True:
        # The two top bits set (the product has all `2 * bits`), odd.
        candidate = secrets.randbits(bits) | (3 << (bits - 2)) | 1
        if candidate % _E != 1 and _probably_prime(candidate):
            return candidate


def _der_length(size: int) -> bytes:
    if size < 0x80:
        return bytes([size])
    raw = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw


def _der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + _der_length(len(body)) + body


def _der_int(value: int) -> bytes:
    raw = value.to_bytes(value.bit_length() // 8 + 1, "big")  # a leading 0: not negative
    return _der(0x02, raw)


@dataclass(frozen=True)
class KeyPair:
    n: int
    d: int

    @classmethod
    def generate(cls, bits: int = 2048) -> KeyPair:
        while True:
            p, q = _prime(bits // 2), _prime(bits // 2)
            if p != q:
                break
        d = pow(_E, -1, (p - 1) * (q - 1))
        return cls(p * q, d)

    @property
    def size(self) -> int:
        """The modulus's length in bytes."""
        return (self.n.bit_length() + 7) // 8

    def public_der(self) -> bytes:
        rsa_key = _der(0x30, _der_int(self.n) + _der_int(_E))
        algorithm = _der(0x30, _RSA_OID + b"\x05\x00")
        return _der(0x30, algorithm + _der(0x03, b"\x00" + rsa_key))

    def public_pem(self) -> str:
        text = base64.b64encode(self.public_der()).decode()
        lines = [text[i : i + 64] for i in range(0, len(text), 64)]
        return "\n".join(["-----BEGIN PUBLIC KEY-----", *lines, "-----END PUBLIC KEY-----", ""])

    def decrypt(self, cipher: bytes) -> bytes:
        """RSAES-PKCS1-v1_5 decryption (RFC 8017 §7.2.2); `UserKeyError` if it does not
        decrypt to a padded message."""
        if len(cipher) != self.size:
            raise UserKeyError(f"{len(cipher)} bytes, not the {self.size} of this key")
        value = int.from_bytes(cipher, "big")
        if value >= self.n:
            raise UserKeyError("not encrypted with this key")
        block = pow(value, self.d, self.n).to_bytes(self.size, "big")
        end = block.find(b"\x00", 2)
        if block[:2] != b"\x00\x02" or end < 10:
            raise UserKeyError("not encrypted with this key")
        return block[end + 1 :]


def key_request_url(base_url: str, keys: KeyPair, nonce: str, client_id: str) -> str:
    """The page the GM account opens (logged in) to approve forumgm's key."""
    query = urlencode(
        {
            "application_name": APPLICATION,
            "client_id": client_id,
            "scopes": SCOPES,
            "public_key": keys.public_pem(),
            "nonce": nonce,
        }
    )
    return base_url.rstrip("/") + "/user-api-key/new?" + query


def read_payload(text: str, keys: KeyPair, nonce: str) -> str:
    """The key in what Discourse showed (base64, line breaks and spaces as copied)."""
    compact = "".join(text.split())
    try:
        cipher = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise UserKeyError("not the base64 text Discourse shows") from None
    plain = keys.decrypt(cipher)
    try:
        answer = json.loads(plain.decode("utf-8"))
    except ValueError:  # a UnicodeDecodeError too
        raise UserKeyError("it decrypts to no JSON answer") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("key"), str):
        raise UserKeyError("the answer holds no key")
    if answer.get("nonce") != nonce:
        raise UserKeyError("the answer is to another request (its nonce differs)")
    return str(answer["key"])
