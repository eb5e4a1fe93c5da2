package password

import "testing"

// A hash written by Better Auth 1.7.25 for "password123" (from a database it created).
const betterAuthHash = "2abe8002a4151d212b8989fe209d02fd:f863ccc8f21eaabad6e4b59d54248462fb585e2578921f9fda06b746a611ef9909e80629d6492ac424a9481861be5864c8a1020f79b2741f840336f7823aef2a"

func TestVerifiesBetterAuthHash(t *testing.T) {
	ok, err := Verify(betterAuthHash, "password123")
	if err != nil || !ok {
		t.Fatalf("Better Auth hash not accepted: %v %v", ok, err)
	}
	if ok, _ := Verify(betterAuthHash, "password124"); ok {
		t.Fatal("wrong password accepted")
	}
}

func TestHashRoundTrip(t *testing.T) {
	h, err := Hash("ünïcödé pass")
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 32+1+128 {
		t.Errorf("hash %q has length %d, want 161 (hex salt : hex key)", h, len(h))
	}
	// NFKC: the composed and decomposed forms are the same password, as in Better Auth.
	if ok, _ := Verify(h, "u\u0308nïcödé pass"); !ok {
		t.Error("NFKC-equivalent password rejected")
	}
	if _, err := Verify("nocolon", "x"); err != ErrMalformed {
		t.Errorf("malformed hash: %v", err)
	}
}
