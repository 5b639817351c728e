import { DownOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useSignedIn } from '../session';
import { buildAdminMenu, type MenuGroup } from './menuModel';

function GroupPanel({ g, onPick }: { g: MenuGroup; onPick: () => void }) {
  const { t } = useTranslation();
  const link = (i: MenuGroup['items'][number]) => (
    <Link key={i.web_url + i.display_name} to={i.web_url} onClick={onPick}>
      {i.display_name}
    </Link>
  );
  if (g.split) {
    return (
      <div className="menu-split" data-testid={`menu-panel-${g.name}`}>
        <div>
          <h4>{t('frame.termination')}</h4>
          {g.items.filter((i) => i.sub !== 'origination').map(link)}
        </div>
        <div>
          <h4>{t('frame.origination')}</h4>
          {g.items.filter((i) => i.sub === 'origination').map(link)}
        </div>
      </div>
    );
  }
  return (
    <div
      className={g.columns ? 'menu-columns' : ''}
      style={g.columns ? undefined : { padding: 6, minWidth: 180 }}
      data-testid={`menu-panel-${g.name}`}
    >
      {g.items.map(link)}
    </div>
  );
}

function GroupButton({ g }: { g: MenuGroup }) {
  const [open, setOpen] = useState(false);
  const path = useLocation().pathname;
  useEffect(() => setOpen(false), [path]);
  return (
    <Popover
      content={<GroupPanel g={g} onPick={() => setOpen(false)} />}
      trigger={['hover', 'click']}
      placement="bottomLeft"
      arrow={false}
      open={open}
      onOpenChange={setOpen}
      styles={{ container: { padding: 0 } }}
    >
      <Button type="text" style={{ color: '#fff' }} data-testid={`menu-${g.name}`}>
        {g.name} <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Popover>
  );
}

/** Admin modules from the server's submenu list, limited by the role. */
export function AdminMenu() {
  const { submenus } = useSignedIn();
  const groups = useMemo(() => buildAdminMenu(submenus), [submenus]);
  return (
    <nav
      className="menu"
      style={{ display: 'flex', flexWrap: 'wrap', overflow: 'hidden' }}
      data-testid="admin-menu"
    >
      {groups.map((g) => (
        <GroupButton key={g.id} g={g} />
      ))}
    </nav>
  );
}
