import { api } from '@tandem/contract';
import { useEffect } from 'react';
import { useApi } from '../../api/queries';

/**
 * The card of every public page, with the configured logo and background image. Plain markup on
 * purpose: the login page's first load stays small (antd's Card pulls in Tabs).
 */
export function PublicCard({
  title,
  children,
  width,
}: {
  title: React.ReactNode;
  children: React.ReactNode;
  width?: number;
}) {
  const branding = useApi(
    api.config.getLoginBranding,
    {},
    { callOptions: { errorMode: 'inline', quiet: true }, staleTime: 300_000 },
  );
  const b = branding.data;
  useEffect(() => {
    const el = document.querySelector<HTMLElement>('.public-page');
    if (el) el.style.backgroundImage = b?.image_url ? `url(${b.image_url})` : '';
  }, [b?.image_url]);
  return (
    <section className="public-card" style={width ? { width } : undefined}>
      <div style={{ textAlign: 'center', marginBottom: 16 }}>
        <img
          src={b?.logo_image_id ? `/api/config/export/public/${b.logo_image_id}` : '/favicon.svg'}
          alt=""
          style={{ height: 48 }}
          data-testid="login-logo"
        />
        <h2 style={{ margin: '8px 0 0' }}>{title}</h2>
        {b?.content ? <p style={{ color: '#666', whiteSpace: 'pre-wrap' }}>{b.content}</p> : null}
      </div>
      {children}
    </section>
  );
}
