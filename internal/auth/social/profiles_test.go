package social_test

// newProfiles sets the answers of the providers added after the first ten, each in the shape
// the provider really answers (its documented user-info or id-token example, trimmed).
func newProfiles(d *idp) {
	d.profiles["apple:id_token"] = map[string]any{"iss": "https://appleid.apple.com", "aud": "apple-client", "sub": "001234.5e5d2c1f8b1c4a8e9d0f.1234",
		"email": "ada@privaterelay.appleid.com", "email_verified": "true", "is_private_email": "true", "auth_time": 1700000000}
	d.profiles["atlassian"] = map[string]any{"account_type": "atlassian", "account_id": "5b10ac8d82e05b22cc7d4ef5", "email": "atl@example.com",
		"name": "At Lassian", "picture": "https://avatar-management.atl-paas.net/x.png", "account_status": "active", "nickname": "atl",
		"zoneinfo": "Australia/Sydney", "locale": "en-US", "email_verified": true}
	d.profiles["cognito:id_token"] = map[string]any{"sub": "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "cognito:username": "cog", "given_name": "Cog",
		"email": "cog@example.com", "email_verified": true, "iss": "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf", "token_use": "id", "aud": "cognito-client"}
	d.profiles["facebook"] = map[string]any{"id": "10158000000000001", "name": "Fay Book", "email": "fay@example.com",
		"picture": map[string]any{"data": map[string]any{"height": 50, "is_silhouette": false, "url": "https://platform-lookaside.fbsbx.com/x", "width": 50}}}
	d.profiles["figma"] = map[string]any{"id": "1234567890", "handle": "figgy", "email": "fig@example.com", "img_url": "https://s3-alpha.figma.com/profile/x"}
	d.profiles["twitch:id_token"] = map[string]any{"aud": "twitch-client", "iss": "https://id.twitch.tv/oauth2", "sub": "713936733", "email": "tw@example.com",
		"email_verified": true, "picture": "https://static-cdn.jtvnw.net/x.png", "preferred_username": "twitchy"}
	d.profiles["twitter?user.fields=profile_image_url"] = map[string]any{"data": map[string]any{"id": "2244994945", "name": "X Dev",
		"username": "XDevelopers", "profile_image_url": "https://pbs.twimg.com/x_normal.jpg"}}
	d.profiles["twitter?user.fields=confirmed_email"] = map[string]any{"data": map[string]any{"id": "2244994945", "name": "X Dev",
		"username": "XDevelopers", "confirmed_email": "x@example.com"}}
	d.profiles["kick"] = map[string]any{"data": []map[string]any{{"user_id": 123456, "name": "kicker", "email": "kick@example.com",
		"profile_picture": "https://files.kick.com/x.webp"}}, "message": "OK"}
	d.profiles["linear"] = map[string]any{"data": map[string]any{"viewer": map[string]any{"id": "8f8990e2-6f3b-4a4c-9d1b-7c0f8c0e1a2b", "name": "Lin Ear",
		"email": "linear@example.com", "avatarUrl": "https://public.linear.app/x.png", "active": true, "createdAt": "2024-01-01T00:00:00.000Z"}}}
	d.profiles["reddit"] = map[string]any{"id": "abc123", "name": "redditor", "icon_img": "https://styles.redditmedia.com/x.png?width=256&s=abc",
		"verified": true, "has_verified_email": true}
	d.profiles["roblox"] = map[string]any{"sub": "1234567", "name": "Robby", "nickname": "Robby", "preferred_username": "robby_r", "created_at": 1600000000,
		"profile": "https://www.roblox.com/users/1234567/profile", "picture": "https://tr.rbxcdn.com/x/150/150/AvatarHeadshot/Png"}
	d.profiles["salesforce"] = map[string]any{"sub": "https://login.salesforce.com/id/00Dxx0000001gPLEAY/005xx000001Sv6AAAS", "user_id": "005xx000001Sv6AAAS",
		"organization_id": "00Dxx0000001gPLEAY", "name": "Sales Force", "email": "sf@example.com", "email_verified": true,
		"photos": map[string]any{"picture": "https://c.salesforce.com/profilephoto/x/F", "thumbnail": "https://c.salesforce.com/profilephoto/x/T"}}
	d.profiles["tiktok"] = map[string]any{"data": map[string]any{"user": map[string]any{"open_id": "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
		"avatar_large_url": "https://p16.tiktokcdn.com/x.jpeg", "display_name": "Tik Tok", "username": "tiktoker"}},
		"error": map[string]any{"code": "ok", "message": "", "log_id": "20231101"}}
	d.profiles["vk"] = map[string]any{"user": map[string]any{"user_id": "1234567890", "first_name": "Ivan", "last_name": "Ivanov", "phone": "79991234567",
		"avatar": "https://sun1.userapi.com/x.jpg", "email": "ivan@example.com", "sex": 2, "verified": false, "birthday": "01.01.2000"}}
	d.profiles["zoom"] = map[string]any{"id": "KDcuGIm1QgePTO8WbOqwIQ", "first_name": "Zo", "last_name": "Om", "display_name": "Zo Om",
		"email": "zoom@example.com", "type": 1, "pic_url": "https://lh4.googleusercontent.com/x", "verified": 1, "status": "active"}
	d.profiles["notion"] = map[string]any{"object": "user", "id": "9a3b5ae0-c6e6-482d-b0e1-ed315ee6dc57", "type": "bot", "bot": map[string]any{
		"owner": map[string]any{"type": "user", "user": map[string]any{"object": "user", "id": "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", "name": "Nora Notion",
			"avatar_url": "https://s3-us-west-2.amazonaws.com/x.png", "type": "person", "person": map[string]any{"email": "nora@example.com"}}},
		"workspace_name": "Nora's Notion"}}
	d.profiles["kakao"] = map[string]any{"id": 3456789012, "connected_at": "2022-04-11T01:45:28Z", "kakao_account": map[string]any{
		"profile_nickname_needs_agreement": false, "profile": map[string]any{"nickname": "Kaka", "thumbnail_image_url": "http://k.kakaocdn.net/dn/img_110x110.jpg",
			"profile_image_url": "http://k.kakaocdn.net/dn/img_640x640.jpg", "is_default_image": false},
		"email_needs_agreement": false, "is_email_valid": true, "is_email_verified": true, "email": "kakao@example.com"}}
	d.profiles["naver"] = map[string]any{"resultcode": "00", "message": "success", "response": map[string]any{"id": "32742776", "nickname": "OpenAPI",
		"profile_image": "https://ssl.pstatic.net/static/pwe/address/x.gif", "email": "naver@example.com", "name": "Na Ver"}}
	d.profiles["line:id_token"] = map[string]any{"iss": "https://access.line.me", "sub": "U1234567890abcdef1234567890abcdef", "aud": "line-client",
		"name": "Li Ne", "picture": "https://profile.line-scdn.net/x", "email": "line@example.com", "amr": []string{"pwd"}}
	ppID := "https://www.paypal.com/webapps/auth/identity/user/mWq6_1sU85v5EG9yHdPxJRrhGHrnMJ-1PQKtX6pcsmA"
	d.profiles["paypal"] = map[string]any{"user_id": ppID, "sub": ppID, "name": "Pay Pal", "email": "pp@example.com", "email_verified": true,
		"verified_account": "true", "address": map[string]any{"country": "US"}}
	d.profiles["paypal:id_token"] = map[string]any{"iss": "https://api.paypal.com", "sub": ppID, "aud": "paypal-client"}
}
