/** Every route of the web app, in one place: links are built from these, never typed by hand. */
export const paths = {
  home: '/',
  following: '/?feed=following',
  signup: '/signup',
  login: '/login',
  createPost: '/createpost',
  editPost: (postId: string) => `/editpost/${postId}`,
  profile: (userId: string) => `/profile/${userId}`,
  post: (postId: string) => `/posts/${postId}`,
  notices: '/notices',
} as const;
