package store

import (
	"context"
	"fmt"
	"time"
)

// ClaimAlertDigest records that the digest named key goes to the user, before it is sent. It
// answers false when the user already has it (or another server is sending it), so a digest
// is never sent twice: the table's primary key decides, even between servers.
func (s *Store) ClaimAlertDigest(ctx context.Context, userID, key string, now time.Time) (bool, error) {
	res, err := s.exec(ctx, `insert into "alertDigest" ("userId", "digestKey", "sentAt") values (?, ?, ?) on conflict do nothing`,
		userID, key, s.dialect.timeArg(now))
	if err != nil {
		return false, fmt.Errorf("alert digest: claim: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("alert digest: claim: %w", err)
	}
	return n == 1, nil
}

// ReleaseAlertDigest forgets a claim whose mail could not be sent, so a later run may retry.
func (s *Store) ReleaseAlertDigest(ctx context.Context, userID, key string) error {
	if _, err := s.exec(ctx, `delete from "alertDigest" where "userId" = ? and "digestKey" = ?`, userID, key); err != nil {
		return fmt.Errorf("alert digest: release: %w", err)
	}
	return nil
}
