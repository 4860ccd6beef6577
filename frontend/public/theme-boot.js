// Runs before the app: picks the theme the app will pick (a logged-in user's saved theme wins,
// then a guest's choice, else light) and paints the page background accordingly.
(function () {
  var theme = 'light';
  try {
    var user = JSON.parse(localStorage.getItem('techit-user') || 'null');
    var guest = localStorage.getItem('techit-theme');
    if (user && (user.theme === 'light' || user.theme === 'dark')) theme = user.theme;
    else if (guest === 'light' || guest === 'dark') theme = guest;
  } catch {
    theme = 'light';
  }
  document.documentElement.setAttribute('data-theme', theme);
  document.documentElement.style.colorScheme = theme;
  document.documentElement.style.backgroundColor = theme === 'dark' ? '#141414' : '#f5f5f5';
})();
