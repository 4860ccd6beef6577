// Work in progress: being built in this session.
export default function Page() {
  return null;
}
