import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PasswordInput } from './password-input';
import { SectionTabs } from './section-tabs';

function Harness() {
  const [current, setCurrent] = useState('a');
  return (
    <SectionTabs
      label="Settings"
      current={current}
      onSelect={setCurrent}
      sections={[
        { id: 'a', label: 'Edit Info', content: <p>info panel</p> },
        { id: 'b', label: 'Password', content: <p>password panel</p> },
        { id: 'c', label: 'Subscription', content: <p>subscription panel</p> },
      ]}
    />
  );
}

describe('SectionTabs', () => {
  it('shows one panel, switches on click and with the arrow, Home and End keys', () => {
    render(<Harness />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
    expect(screen.getByRole('tabpanel').textContent).toBe('info panel');
    fireEvent.click(screen.getByRole('tab', { name: 'Password' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('password panel');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Password' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tabpanel').textContent).toBe('subscription panel');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Subscription' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(screen.getByRole('tabpanel').textContent).toBe('info panel');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(screen.getByRole('tabpanel').textContent).toBe('subscription panel');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(screen.getByRole('tabpanel').textContent).toBe('info panel');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(
      screen.getByRole('tab', { name: 'Edit Info' }).id,
    );
  });
});

describe('PasswordInput', () => {
  it('the toggle switches between masked and visible text', () => {
    render(<PasswordInput aria-label="Password" defaultValue="secret" />);
    const input = screen.getByLabelText('Password');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });
});
