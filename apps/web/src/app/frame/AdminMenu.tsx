import { DownOutlined } from '@ant-design/icons';
import { isLanguage } from '@tandem/contract';
import { Button, Popover, Tag } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { isBuiltPath } from '../routes';
import { useSignedIn } from '../session';
import { buildAdminMenu, type MenuGroup, type MenuItem } from './menuModel';

/** Moves the focus between the panel's links with the arrow keys, Home and End. */
export function onMenuKey(e: React.KeyboardEvent<HTMLElement>, close: () => void) {
  const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>('a')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const go = (n: number) => {
    e.preventDefault();
    links[(n + links.length) % links.length]?.focus();
  };
  if (e.key === 'ArrowDown') go(at + 1);
  else if (e.key === 'ArrowUp') go(at - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(links.length - 1);
  else if (e.key === 'Escape') {
    e.preventDefault();
    close();
  }
}

/** A later-version badge beside menu entries whose page this version does not serve. */
export function LaterBadge() {
  const { t } = useTranslation();
  return (
    <Tag className="menu-later" bordered={false}>
      {t('frame.later')}
    </Tag>
  );
}

function GroupPanel({ g, onPick, onClose }: { g: MenuGroup; onPick: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const link = (i: MenuItem) => (
    <Link
      key={i.web_url + i.display_name}
      to={i.web_url}
      onClick={onPick}
      data-testid={`menu-item-${i.web_url}`}
    >
      {i.label}
      {!i.built && <LaterBadge />}
    </Link>
  );
  const keys = (e: React.KeyboardEvent<HTMLDivElement>) => onMenuKey(e, onClose);
  if (g.split) {
    return (
      <div className="menu-panel-body menu-split" data-testid={`menu-panel-${g.name}`} onKeyDown={keys}>
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
      className={`menu-panel-body ${g.columns ? 'menu-columns' : 'menu-list'}`}

      data-testid={`menu-panel-${g.name}`}
      onKeyDown={keys}
    >
      {g.items.map(link)}
    </div>
  );
}

function GroupButton({ g }: { g: MenuGroup }) {
  const [open, setOpen] = useState(false);
  const path = useLocation().pathname;
  const button = useRef<HTMLButtonElement>(null);
  const focusFirst = useRef(false);
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open || !focusFirst.current) return;
    focusFirst.current = false;
    // The panel renders in a portal on the next frame.
    const timer = setTimeout(() => {
      document.querySelector<HTMLAnchorElement>(`[data-testid="menu-panel-${g.name}"] a`)?.focus();
    }, 50);
    return () => clearTimeout(timer);
  }, [open, g.name]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <Popover
      content={<GroupPanel g={g} onPick={() => setOpen(false)} onClose={close} />}
      trigger={['hover', 'click']}
      placement="bottomLeft"
      arrow={false}
      open={open}
      onOpenChange={setOpen}
      autoAdjustOverflow
      styles={{ container: { padding: 0 } }}
    >
      <Button
        ref={button}
        type="text"
        style={{ color: '#fff' }}
        data-testid={`menu-${g.name}`}
        aria-haspopup="true"
        aria-expanded={open}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
            e.preventDefault();
            focusFirst.current = true;
            setOpen(true);
          } else if (e.key === 'Escape') setOpen(false);
        }}
      >
        {g.label} <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Popover>
  );
}

/** Admin modules from the server's submenu list, limited by the role, in the user's language. */
export function AdminMenu() {
  const { submenus } = useSignedIn();
  const { i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const groups = useMemo(() => buildAdminMenu(submenus, lang, isBuiltPath), [submenus, lang]);
  return (
    <nav className="menu" style={{ display: 'flex', flexWrap: 'wrap' }} data-testid="admin-menu">
      {groups.map((g) => (
        <GroupButton key={g.id} g={g} />
      ))}
    </nav>
  );
}
