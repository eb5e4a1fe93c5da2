package providers

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("discord", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://discord.com/api/oauth2/authorize",
			TokenURL:    "https://discord.com/api/oauth2/token",
			UserInfoURL: "https://discord.com/api/users/@me",
			Scopes:      []string{"identify", "email"},
			Params:      map[string]string{"prompt": "none"},
			CanRefresh:  true,
			Profile:     discordProfile,
		}
	})
}

func discordProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	id := str(prof, "id")
	return &UserInfo{ID: id, Name: firstNonEmpty(str(prof, "global_name"), str(prof, "username")), Email: str(prof, "email"),
		Image: optStr(discordAvatar(id, str(prof, "avatar"), str(prof, "discriminator"))), EmailVerified: boolean(prof, "verified"), Data: prof}, nil
}

// discordAvatar is the user's avatar, or Discord's default one: (id >> 22) % 6 for the new
// usernames (discriminator "0"), discriminator % 5 for the old ones.
func discordAvatar(id, avatar, discriminator string) string {
	if avatar != "" {
		ext := "png"
		if strings.HasPrefix(avatar, "a_") {
			ext = "gif"
		}
		return fmt.Sprintf("https://cdn.discordapp.com/avatars/%s/%s.%s", id, avatar, ext)
	}
	n := 0
	if discriminator == "0" || discriminator == "" {
		if b, ok := new(big.Int).SetString(id, 10); ok {
			n = int(new(big.Int).Mod(new(big.Int).Rsh(b, 22), big.NewInt(6)).Int64())
		}
	} else if d, err := strconv.Atoi(discriminator); err == nil {
		n = d % 5
	}
	return fmt.Sprintf("https://cdn.discordapp.com/embed/avatars/%d.png", n)
}
