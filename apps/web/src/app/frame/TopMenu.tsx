import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { isBuiltPath } from '../routes';
import { LaterBadge } from './AdminMenu';

/** A fixed portal top bar (client, vendor, agent): plain links and dropdowns of links. */
export interface TopEntry {
  key: string;
  label: string;
  to?: string;
  children?: { key: string; label: string; to: string }[];
}

export function TopMenu({ entries, testId }: { entries: TopEntry[]; testId: string }) {
  const navigate = useNavigate();
  return (
    <nav className="menu" style={{ display: 'flex', flexWrap: 'wrap' }} data-testid={testId}>
      {entries
        .filter((e) => e.to || (e.children && e.children.length))
        .map((e) =>
          e.to ? (
            <Link key={e.key} to={e.to}>
              <Button type="text" style={{ color: '#fff' }} data-testid={`menu-${e.key}`}>
                {e.label}
                {!isBuiltPath(e.to) && <LaterBadge />}
              </Button>
            </Link>
          ) : (
            <Dropdown
              key={e.key}
              menu={{
                items: e.children!.map((c) => ({
                  key: c.to,
                  label: (
                    <span data-testid={`menu-item-${c.key}`} className="menu-entry">
                      {c.label}
                      {!isBuiltPath(c.to) && <LaterBadge />}
                    </span>
                  ),
                })),
                onClick: ({ key }) => void navigate(key),
              }}
            >
              <Button type="text" style={{ color: '#fff' }} data-testid={`menu-${e.key}`}>
                {e.label} <DownOutlined style={{ fontSize: 10 }} />
              </Button>
            </Dropdown>
          ),
        )}
    </nav>
  );
}
