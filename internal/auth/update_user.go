package auth

import (
	"encoding/json"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

type updateUserBody struct {
	Name  *string         `json:"name"`
	Image json.RawMessage `json:"image"` // absent: unchanged; null: removed
	Email *string         `json:"email"`
}

func (s *Service) updateUser(w http.ResponseWriter, r *http.Request) {
	l, ok := s.RequireSensitive(w, r)
	if !ok {
		return
	}
	var b updateUserBody
	if !ReadJSON(w, r, &b, nil) {
		return
	}
	if b.Email != nil {
		writeErr(w, r, e(http.StatusBadRequest, "EMAIL_CAN_NOT_BE_UPDATED", "Email can not be updated"))
		return
	}
	upd := store.UserUpdate{Name: b.Name}
	if len(b.Image) > 0 {
		var img *string
		if err := json.Unmarshal(b.Image, &img); err != nil {
			writeErr(w, r, httpx.BadRequest("[body.image] Invalid input: expected string"))
			return
		}
		upd.Image = &img
	}
	var f Fields
	f.MaxLen("name", b.Name, maxNameLen)
	if upd.Image != nil {
		f.MaxLen("image", *upd.Image, maxURLLen)
	}
	if err := f.Err(); err != nil {
		writeErr(w, r, err)
		return
	}
	if b.Name == nil && upd.Image == nil {
		writeErr(w, r, ErrNoFieldsToUpdate)
		return
	}
	u, err := s.UpdateUser(r.Context(), l.User.ID, upd)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	s.refreshCookies(w, r, l, userJSON(u))
	WriteStatus(w)
}
