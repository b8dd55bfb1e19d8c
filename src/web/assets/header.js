// The header's Sign out button: POST /logout with the session's CSRF token, then the login page.
const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
const button = document.getElementById('sign-out');

button?.addEventListener('click', async () => {
  button.disabled = true;
  try {
    const res = await fetch('/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': csrf },
    });
    // 401: the session had already ended; either way the login page is where this ends.
    if (res.ok || res.status === 401) {
      window.location.assign('/login');
      return;
    }
  } catch {
    // offline: leave the button usable for another try
  }
  button.disabled = false;
});
