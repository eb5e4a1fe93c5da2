-- wrk script: POST /api/auth/sign-in/email with the benchmark user's credentials.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"bench@example.com","password":"bench-password-1"}'
