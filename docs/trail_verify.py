"""Re-verify an exported kgaudit audit trail without kgaudit.

    kgaudit trail export --out trail.jsonl
    pip install rfc8785                    # or any RFC 8785 (JCS) implementation
    python trail_verify.py trail.jsonl     # exit 0: every hash and link checks out

Rules (docs/trail.md): each record hash is SHA-256 over the canonical JSON of
{"v", "audit", "claims"}, where the audit's text, request, meta and result enter as the
SHA-256 of their own canonical JSON; each event hash is SHA-256 over the canonical JSON of
{"v", "seq", "kind", "audit_id", "tenant_id", "created_at", "record_hash", "prev_hash"};
each event's prev_hash is the previous event's hash (64 zeros for the first). Canonical JSON
is RFC 8785 for hash version 2, sorted-key compact json.dumps for version 1.
"""

import hashlib
import json
import sys

import rfc8785

DIGESTED = ("text", "request", "meta", "result")


def canonical(value, version):
    if version == 1:
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        ).encode("utf-8")
    return rfc8785.dumps(value)


def sha256(value, version):
    return hashlib.sha256(canonical(value, version)).hexdigest()


def check(line, prev_hash, expected_seq):
    v, audit = line["hash_version"], line.get("audit")
    if line["seq"] != expected_seq:
        return f"seq {expected_seq}: missing (the export jumps to {line['seq']})"
    if line["prev_hash"] != prev_hash:
        return f"seq {line['seq']}: does not follow the previous event"
    event = {
        k: line[k]
        for k in ("seq", "kind", "audit_id", "tenant_id", "created_at", "record_hash", "prev_hash")
    }
    if sha256({"v": v, **event}, v) != line["hash"]:
        return f"seq {line['seq']}: the event's hash does not match its fields"
    if line["kind"] == "review.recorded":  # a reviewer's decision
        if line.get("review") is None:
            return f"seq {line['seq']}: the review decision is missing"
        if sha256({"v": v, "review": line["review"]}, v) != line["record_hash"]:
            return f"seq {line['seq']}: the review decision differs from what was hashed"
        return None
    if audit is None:
        return f"seq {line['seq']}: the audit is missing"
    hashed = {k: sha256(val, v) if k in DIGESTED else val for k, val in audit.items()}
    if sha256({"v": v, "audit": hashed, "claims": line["claims"]}, v) != line["record_hash"]:
        return f"seq {line['seq']}: the audit or its claims differ from what was hashed"
    return None


def main(path):
    prev, n = "0" * 64, 0
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = json.loads(raw)
            problem = check(line, prev, n)
            if problem:
                print(f"BROKEN {problem}")
                return 1
            prev = line["hash"]
    print(f"ok: {n} records, head {prev if n else None}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
