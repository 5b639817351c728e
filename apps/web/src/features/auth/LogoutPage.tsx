import { useEffect } from 'react';
import { useSession } from '../../app/session';
import { Spinner } from '../../components/Spinner';

/** /logout: clears the session and goes to the root (then the login page). */
export default function LogoutPage() {
  const { signOut } = useSession();
  useEffect(() => {
    void signOut();
  }, [signOut]);
  return <Spinner />;
}
