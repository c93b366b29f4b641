# Writes N files of a few KiB of deterministic text under DIR: the "sources" of the reference build.
use strict;
use warnings;
my ($dir, $n) = @ARGV;
die "usage: generate.pl DIR N\n" unless defined $n && $n =~ /^\d+$/;
mkdir $dir or die "mkdir $dir: $!\n";
for my $i (1 .. $n) {
  my $sub = sprintf('%s/m%02d', $dir, $i % 20);
  -d $sub or mkdir $sub or die "mkdir $sub: $!\n";
  open(my $fh, '>', "$sub/unit$i.c") or die "open: $!\n";
  print $fh "/* unit $i */\nint f$i(int x) { return x * $i + ", ($i * 7919) % 1000, "; }\n" for 1 .. 64;
  close $fh;
}
print "generated $n files\n";
