package admin_test

import (
	"path/filepath"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/testkit/authcompare"
)

// The same request sequences (admin and device-authorization plugins, with the bearer plugin)
// go to a Better Auth 1.7 server built from the npm package (testdata/betterauth.mjs, on its own
// PostgreSQL schema) and to ours; authcompare reports every answer that differs. Differences we
// chose are the steps' Accept reasons and the README's list.
func TestSameAnswersAsBetterAuth(t *testing.T) {
	script, _ := filepath.Abs("testdata/betterauth.mjs")
	ref := authcompare.StartBetterAuth(t, script, "DEVICE_INTERVAL=1s")
	ours := authcompare.Ours(testkit.Server(t, testkit.Postgres(t), map[string]string{"AUTH_DEVICE_INTERVAL": "1s"}))
	authcompare.Run(t, ref, ours, compareSteps(), authcompare.Options{
		Volatile: map[string]bool{"impersonatedBy": true, "device_code": true, "user_code": true, "access_token": true},
		TimeKeys: map[string]bool{"banExpires": true},
		// The organization plugin's session fields: this reference server does not run it.
		Ignore: map[string]bool{"activeOrganizationId": true, "activeTeamId": true},
	})
}
