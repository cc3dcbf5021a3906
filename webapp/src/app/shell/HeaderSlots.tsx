// Slot for the upload-history icon and its unread badge (max 9 shown, hidden at 0), which
// come with the upload issue. Render it here; the header already places it.
export function UploadHistorySlot() {
  return null;
}
