# Writes N files of a few KiB of deterministic text under DIR: the "sources" of the reference build. With
# WORK > 0 each file is also "compiled": WORK rounds of integer arithmetic, the result written into the file,
# so that the build has CPU-bound work of its own, long enough to time (the benchmark's `work` parameter).
use strict;
use warnings;
my ($dir, $n, $work) = @ARGV;
$work = 0 unless defined $work;
die "usage: generate.pl DIR N [WORK]\n" unless defined $n && $n =~ /^\d+$/ && $work =~ /^\d+$/;
mkdir $dir or die "mkdir $dir: $!\n";
for my $i (1 .. $n) {
  my $sub = sprintf('%s/m%02d', $dir, $i % 20);
  -d $sub or mkdir $sub or die "mkdir $sub: $!\n";
  open(my $fh, '>', "$sub/unit$i.c") or die "open: $!\n";
  print $fh "/* unit $i */\nint f$i(int x) { return x * $i + ", ($i * 7919) % 1000, "; }\n" for 1 .. 64;
  if ($work > 0) {
    my $h = $i;
    $h = ($h * 1103515245 + 12345) % 2147483648 for 1 .. $work;
    print $fh "/* compiled $h */\n";
  }
  close $fh;
}
print "generated $n files\n";
