package cli

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sellertrends/sellertrends/internal/config"
)

// authSecret returns AUTH_SECRET, or in development a secret generated once and kept in
// DATA_DIR/auth-secret so sessions survive restarts.
func authSecret(cfg *config.Config) (string, error) {
	if cfg.AuthSecret != "" {
		return cfg.AuthSecret, nil
	}
	if cfg.Production() {
		return "", errors.New("AUTH_SECRET is required in production")
	}
	path := filepath.Join(cfg.DataDir, "auth-secret")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return "", fmt.Errorf("create DATA_DIR: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	secret := hex.EncodeToString(raw)
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("keep development secret: %w", err)
	}
	return secret, nil
}
